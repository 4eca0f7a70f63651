/** Per-request timeout: each attempt gets its own deadline, and missing it is a retryable `timeout` ProviderError. */
import { ProviderError } from '../errors.js';
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
      const deadline = AbortSignal.timeout(policy.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
      try {
        return await provider.generate(request, combined);
      } catch (error) {
        if (!deadline.aborted || signal?.aborted) throw error;
        throw new ProviderError({
          provider: provider.id,
          kind: 'timeout',
          retryable: true,
          message: `${provider.id}: no reply within ${policy.timeoutMs} ms`,
          cause: error,
        });
      }
    },
  };
}
