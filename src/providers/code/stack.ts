/**
 * A planner or agent as code behind the same engine as a model: transport → timeout → limit →
 * retry → loud-failure watch → budget gate → cache. The cache is keyed by the code's identity
 * (the spec, and for a module its `version` and the file's digest; for a command the digest of
 * the files it names) and by the case or turn it is asked about.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ProviderError, SystematicFailureError } from '../../errors.js';
import { withCache, type CacheScope, type ResponseCache } from '../cache.js';
import { withFailureWatch } from '../failure-watch.js';
import { withGate, type CallGate } from '../gate.js';
import { LimiterPool, limiterKey, withLimit } from '../limit.js';
import type { Limits } from '../../limits.js';
import type { Provider } from '../provider.js';
import { withRetry, type RetryPolicy } from '../retry.js';
import { withTimeout } from '../timeout.js';
import { codeProvider, type CodeTransport } from './adapter.js';
import { checkHttpTarget, httpTransport } from './http.js';
import { checkModuleTarget, fileDigest, loadPlannerModule, moduleTransport } from './module.js';
import type { CodeSpec } from './spec.js';
import { checkCommandTarget, subprocessTransport } from './subprocess.js';

/** The engine knobs a code stack takes (the run's, as for a model stack). */
export interface CodeStackOptions {
  concurrency: number;
  rpm?: number;
  timeoutMs: number;
  maxRetries: number;
  cache?: { cache: ResponseCache | null; enabled: boolean };
  limiters?: LimiterPool;
  gate?: CallGate;
  failureWatch?: boolean;
  retry?: Pick<
    RetryPolicy,
    'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterMs' | 'sleep' | 'random' | 'onRetry'
  >;
  fetch?: typeof globalThis.fetch;
  cwd?: string;
  /** The caps on what the code answers and the images it is sent; default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

/** Builds the stack for a code spec; a missing file, an empty command or a bad URL throws `UsageError` now. */
export function buildCodeStack(code: CodeSpec, options: CodeStackOptions): Provider {
  const cwd = options.cwd ?? process.cwd();
  if (code.form === 'module') {
    const file = checkModuleTarget(code.spec, code.target, cwd);
    let ready: Promise<Provider> | null = null;
    return {
      id: code.spec,
      generate(request, signal) {
        ready ??= loadPlannerModule(code.spec, file).then(
          (planner) =>
            engine(code, moduleTransport(code.spec, planner), options, {
              version: `${planner.version ?? ''} ${fileDigest(file)}`,
            }),
          (error: Error) => {
            // A module that cannot be loaded fails every case the same way: stop at once.
            const reason = new ProviderError({
              provider: code.spec,
              kind: 'client',
              retryable: false,
              message: error.message,
            });
            throw new SystematicFailureError(code.spec, reason, 1);
          },
        );
        return ready.then((provider) => provider.generate(request, signal));
      },
    };
  }
  if (code.form === 'cmd') {
    const command = checkCommandTarget(code.spec, code.target);
    return engine(code, subprocessTransport(code.spec, command, options.limits), options, {
      version: commandDigest(command, cwd),
    });
  }
  const url = checkHttpTarget(code.spec, code.target);
  return engine(code, httpTransport(code.spec, url, options.fetch, options.limits), options, {
    version: '',
  });
}

/** The digests of the files a command names (`python3 agent.py`: agent.py's), so editing it is a new planner. */
function commandDigest(command: string, cwd: string): string {
  return command
    .split(/\s+/)
    .map((word) => word.replace(/^['"]|['"]$/g, ''))
    .filter((word) => word !== '' && !word.startsWith('-'))
    .map((word) => path.resolve(cwd, word))
    .filter((file) => existsSync(file) && statSync(file).isFile())
    .map(fileDigest)
    .join(' ');
}

function engine(
  code: CodeSpec,
  transport: CodeTransport,
  options: CodeStackOptions,
  identity: { version: string },
): Provider {
  const pool = options.limiters ?? new LimiterPool();
  const limiter = pool.get(limiterKey(code.form, code.target), {
    concurrency: code.form === 'cmd' ? 1 : options.concurrency,
    rpm: options.rpm,
    adaptive: false,
  });
  const adapter = codeProvider(code.spec, transport, options.limits?.imageBytes);
  const timed = withTimeout(adapter, { timeoutMs: options.timeoutMs });
  const retried = withRetry(withLimit(timed, { limiter }), {
    maxRetries: options.maxRetries,
    ...options.retry,
  });
  const watched = options.failureWatch === false ? retried : withFailureWatch(retried);
  const gated = options.gate ? withGate(watched, options.gate) : watched;
  const scope: CacheScope = {
    provider: code.form,
    model: code.target,
    baseUrl: identity.version,
    bySubject: true,
  };
  return withCache(gated, {
    cache: options.cache?.cache ?? null,
    enabled: options.cache?.enabled ?? false,
    scope,
    ...(options.limits ? { jsonDepth: options.limits.jsonDepth } : {}),
  });
}
