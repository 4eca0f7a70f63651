/** The error base and the shared error classes: every expected failure carries a stable `code`. */

/** Where a problem sits in an input file, reported as `FILE:LINE: field: message`. */
export interface InputIssue {
  file: string;
  line: number;
  field: string;
  message: string;
}

/** Renders an issue the one way every command prints it. */
export function formatIssue(issue: InputIssue): string {
  return `${issue.file}:${issue.line}: ${issue.field}: ${issue.message}`;
}

/** Base of every error apb expects; `cli/main.ts` prints `message` without a stack. */
export class ApbError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad input data: one or more issues, each with file, line and field. */
export class InputError extends ApbError {
  constructor(readonly issues: InputIssue[]) {
    super('input', issues.map(formatIssue).join('\n'));
  }
}

/** A server that cannot listen, worded for the terminal: a port in use or one that needs privileges (exit 1). */
export function listenError(host: string, port: number, error: unknown): ApbError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason =
    code === 'EADDRINUSE'
      ? 'the port is in use (pick another with --port, or 0 for a free one)'
      : code === 'EACCES'
        ? 'the port needs privileges (use one above 1023, or 0 for a free one)'
        : ((error as Error)?.message ?? String(error));
  return new ApbError('environment', `cannot listen on ${host}:${port}: ${reason}`, {
    cause: error,
  });
}

/** Bad command-line arguments or run specification. */
export class UsageError extends ApbError {
  constructor(message: string) {
    super('usage', message);
  }
}

/** An existing run directory that was produced with other settings than those asked for. */
export class RunMismatchError extends ApbError {
  constructor(message: string) {
    super('run-mismatch', message);
  }
}

/** A failed model call; retryability is decided where the error is made, and the message holds no secret. */
export class ProviderError extends ApbError {
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** `auth` failures stop a run at once instead of failing every case. */
  readonly kind:
    | 'auth'
    | 'rate-limit'
    | 'server'
    | 'client'
    | 'network'
    | 'timeout'
    | 'bad-response'
    | 'aborted';

  constructor(options: {
    provider: string;
    message: string;
    kind: ProviderError['kind'];
    retryable: boolean;
    status?: number;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    super('provider', options.message, { cause: options.cause });
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.kind = options.kind;
  }
}

/**
 * Calls to a model fail the same way again and again (an unknown model, a rejected parameter, an
 * endpoint that refuses connections, a planner process that keeps dying): the run stops like
 * after a rejected key (exit 1), naming it. `succeeded` counts the calls that worked before, so
 * the message never claims nothing succeeded when earlier cases did.
 */
export class SystematicFailureError extends ApbError {
  constructor(
    readonly provider: string,
    readonly reason: ProviderError,
    readonly calls: number,
    readonly succeeded = 0,
  ) {
    super(
      'systematic',
      `${reason.message}\napb: ${provider}: ${failureStory(calls, succeeded)}, so the run ` +
        'stopped instead of recording the same error for every case (check the model name, ' +
        'the base URL and the endpoint)',
    );
  }
}

/** What happened before the run stopped: the failures in a row, and what succeeded first. */
function failureStory(calls: number, succeeded: number): string {
  if (succeeded === 0)
    return calls === 1
      ? 'the first call failed and nothing has succeeded'
      : `the first ${calls} calls all failed the same way and nothing has succeeded`;
  const before = succeeded === 1 ? '1 call succeeded' : `${succeeded} calls succeeded`;
  return calls === 1
    ? `a call failed after ${before}`
    : `${calls} calls in a row failed after ${before}`;
}

/** True for errors that must stop the whole run instead of becoming a case outcome: a rejected key, a systematic failure or an abort. */
export function isFatal(error: unknown): boolean {
  return (
    (error instanceof ProviderError && (error.kind === 'auth' || error.kind === 'aborted')) ||
    error instanceof SystematicFailureError ||
    (error as Error)?.name === 'AbortError'
  );
}
