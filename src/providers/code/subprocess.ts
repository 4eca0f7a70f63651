/**
 * `cmd:COMMAND`: one long-lived process (started through the shell, any language) that reads one
 * JSON request per line on stdin and writes one JSON answer per line on stdout; its stderr is
 * passed through. Requests go one at a time. A crash, a bad line or a timeout is that request's
 * error and the process is started again for the next one; a process that keeps dying stops the
 * run as a dead endpoint does.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ProviderError, SystematicFailureError, UsageError } from '../../errors.js';
import { parseUntrustedJson } from '../../json-depth.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { CodeTransport } from './adapter.js';
import { codeError } from './wire.js';

/** Requests in a row that end with the process gone before the run stops (a dead endpoint). */
export const DEAD_AFTER = 5;

interface Waiter {
  resolve(line: string): void;
  reject(error: Error): void;
}

/** One process and its line reader; a fresh one is started when the last one is gone. */
class LineProcess {
  private child: ChildProcessWithoutNullStreams | null = null;
  private buffered = '';
  private waiter: Waiter | null = null;

  constructor(
    private readonly id: string,
    private readonly command: string,
    /** The longest line read (the reply cap). */
    private readonly maxLineBytes: number,
  ) {}

  /** Writes one line and resolves with the next line the process writes. */
  exchange(line: string): Promise<string> {
    const child = this.child ?? this.start();
    return new Promise<string>((resolve, reject) => {
      this.waiter = { resolve, reject };
      hold(child, true);
      child.stdin.write(`${line}\n`);
    }).finally(() => {
      this.waiter = null;
      if (this.child) hold(this.child, false);
    });
  }

  /** Ends the process (after a bad line or an abort: what it writes next cannot be trusted). */
  stop(): void {
    const child = this.child;
    this.child = null;
    this.buffered = '';
    child?.kill();
    this.waiter?.reject(codeError(this.id, 'the process was stopped before it answered'));
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn(this.command, {
      shell: true,
      stdio: ['pipe', 'pipe', 'inherit'],
    }) as unknown as ChildProcessWithoutNullStreams;
    this.child = child;
    child.stdin.on('error', () => {}); // a closed pipe shows as the exit below
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.read(child, chunk));
    child.on('error', (error) => this.gone(child, `could not be started (${error.message})`));
    child.on('exit', (code, signal) =>
      this.gone(child, `exited (${signal ? `signal ${signal}` : `code ${code}`}) before answering`),
    );
    killOnExit(child);
    return child;
  }

  private read(child: ChildProcessWithoutNullStreams, chunk: string): void {
    if (child !== this.child) return;
    this.buffered += chunk;
    if (this.buffered.length > this.maxLineBytes) {
      this.waiter?.reject(
        codeError(this.id, `wrote a line longer than ${this.maxLineBytes} bytes`),
      );
      this.stop();
      return;
    }
    const newline = this.buffered.indexOf('\n');
    if (newline < 0) return;
    const line = this.buffered.slice(0, newline);
    this.buffered = this.buffered.slice(newline + 1);
    if (line.trim() === '') return this.read(child, '');
    this.waiter?.resolve(line);
  }

  private gone(child: ChildProcessWithoutNullStreams, what: string): void {
    if (child !== this.child) return;
    this.child = null;
    this.buffered = '';
    this.waiter?.reject(
      new ProviderError({
        provider: this.id,
        kind: 'server',
        retryable: false,
        message: `${this.id}: the process ${what}`,
      }),
    );
  }
}

/** An idle process (and its pipes) must not keep apb alive; one answering must. */
function hold(child: ChildProcessWithoutNullStreams, on: boolean): void {
  for (const handle of [child, child.stdin, child.stdout] as unknown as {
    ref?(): void;
    unref?(): void;
  }[])
    if (on) handle.ref?.();
    else handle.unref?.();
}

const running = new Set<ChildProcessWithoutNullStreams>();
let exitHookSet = false;

/** Children never outlive apb (they would otherwise wait on stdin forever). */
function killOnExit(child: ChildProcessWithoutNullStreams): void {
  running.add(child);
  child.on('exit', () => running.delete(child));
  if (exitHookSet) return;
  exitHookSet = true;
  process.on('exit', () => running.forEach((each) => each.kill()));
}

/** Checks the command now (an empty one is a usage error before any call). */
export function checkCommandTarget(spec: string, target: string): string {
  if (target === '') throw new UsageError(`${spec}: no command after "cmd:"`);
  return target;
}

/**
 * The transport of `cmd:COMMAND`: one request at a time over one restartable process, its lines
 * read under the reply and JSON caps of `limits`.
 */
export function subprocessTransport(
  id: string,
  command: string,
  limits: Limits = DEFAULT_LIMITS,
): CodeTransport {
  const worker = new LineProcess(id, command, limits.replyBytes);
  let queue: Promise<unknown> = Promise.resolve();
  let deaths = 0;
  // Answers before the deaths in a row: the error then does not claim nothing has succeeded.
  let answered = 0;
  const once: CodeTransport = async (request, signal) => {
    if (signal?.aborted) throw signal.reason;
    const onAbort = () => worker.stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    let line: string;
    try {
      line = await worker.exchange(JSON.stringify(request));
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      deaths += 1;
      if (deaths >= DEAD_AFTER && error instanceof ProviderError)
        throw new SystematicFailureError(id, error, deaths, answered);
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    deaths = 0;
    answered += 1;
    try {
      return parseUntrustedJson(line, limits.jsonDepth);
    } catch {
      worker.stop();
      throw codeError(id, `wrote a line that is not JSON: ${line.slice(0, 200)}`);
    }
  };
  return (request, signal) => {
    const turn = queue.then(() => once(request, signal));
    queue = turn.catch(() => {});
    return turn;
  };
}
