/** Per-request timeout: each attempt gets its own deadline, and missing it is a retryable `timeout` ProviderError. */
import { ProviderError } from '../errors.js';
import { onAbort } from './abort.js';
import type { Provider } from './provider.js';

/** How long one HTTP attempt may take. */
export interface TimeoutPolicy {
  timeoutMs: number;
}

/** Wraps a provider so each call is aborted after `timeoutMs`; the caller's own abort stays an `aborted` error. */
export function withTimeout(provider: Provider, policy: TimeoutPolicy): Provider {
  return {
    id: provider.id,
    async generate(request, signal) {
      // One controller and one timer per attempt, detached afterwards: `AbortSignal.any` would leave a weak
      // reference on the run's long-lived signal for every call.
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(
          new DOMException(`no reply within ${policy.timeoutMs} ms`, 'TimeoutError'),
        );
      }, policy.timeoutMs);
      const detach = signal ? onAbort(signal, () => controller.abort(signal.reason)) : undefined;
      try {
        return await provider.generate(request, controller.signal);
      } catch (error) {
        if (!timedOut || signal?.aborted) throw error;
        throw new ProviderError({
          provider: provider.id,
          kind: 'timeout',
          retryable: true,
          message: `${provider.id}: no reply within ${policy.timeoutMs} ms`,
          cause: error,
        });
      } finally {
        clearTimeout(timer);
        detach?.();
      }
    },
  };
}
