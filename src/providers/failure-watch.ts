/**
 * Loud, early failures. A model name the endpoint does not know (404), a parameter it rejects
 * (400), an endpoint that refuses connections or answers only 429 after every retry: each fails
 * every call the same way, and a run that records them as 4,209 `error` outcomes has spent its
 * time to say nothing. The watch sits above the retries of one provider stack and, until the
 * first success, compares the calls' final failures: a 404, or the same failure for the first
 * `firstCalls` calls, stops the run (a `SystematicFailureError`, fatal like a rejected key) with
 * the reason. After one success it never interferes again: failures then are the cases' own.
 */
import { ProviderError, SystematicFailureError } from '../errors.js';
import type { Provider } from './provider.js';

/** How many identical failures before any success make a failure systematic. */
export const SYSTEMATIC_AFTER = 3;

/** A failure that says the endpoint, not the case, is wrong from the first call: an unknown model or path. */
const failsAtOnce = (error: ProviderError) => error.status === 404;

/** Wraps a provider stack with the watch (place it above the retries, below the budget gate and the cache). */
export function withFailureWatch(
  provider: Provider,
  options: { firstCalls?: number } = {},
): Provider {
  const firstCalls = options.firstCalls ?? SYSTEMATIC_AFTER;
  let succeeded = false;
  let tripped: SystematicFailureError | null = null;
  const failures: string[] = [];
  return {
    id: provider.id,
    async generate(request, signal) {
      if (tripped) throw tripped;
      try {
        const result = await provider.generate(request, signal);
        succeeded = true;
        return result;
      } catch (error) {
        if (tripped) throw tripped;
        if (
          succeeded ||
          !(error instanceof ProviderError) ||
          error.kind === 'aborted' ||
          error.kind === 'auth' ||
          signal?.aborted
        )
          throw error;
        // Only the first calls' failures decide; later ones need not be kept.
        if (failures.length < firstCalls)
          failures.push(`${error.kind} ${error.status ?? ''} ${error.message}`);
        const same =
          failures.length === firstCalls && failures.every((failure) => failure === failures[0]);
        if (failsAtOnce(error) || same)
          tripped = new SystematicFailureError(
            provider.id,
            error,
            failsAtOnce(error) ? 1 : firstCalls,
          );
        if (tripped) throw tripped;
        throw error;
      }
    },
  };
}
