/**
 * `runUnits`: the one loop of every command. Units (a case and repeat, a task and trial, a saved
 * answer to judge again or refine, a construction item) stream through the one pool; the session
 * decides when launching stops (a stop, an abort, the budget) and a fatal error cancels the calls
 * in flight. An expected error (a budget refusal, a call deferred to a provider batch, an abort
 * after a stop) leaves its unit unrecorded, to be resumed.
 */
import { runPool, type PoolOptions } from './pool.js';

/** What the loop needs of a session: the run's stop state. */
export interface UnitSession {
  readonly signal: AbortSignal;
  halted(): boolean;
  cancel(): void;
}

/** The loop's settings: the pool, and which errors only leave their unit undone. */
export interface UnitPool extends PoolOptions {
  /** True for an error that leaves its unit unrecorded (resumable) rather than failing the run. */
  expected?: ((error: unknown, signal: AbortSignal) => boolean) | undefined;
}

/** How the loop ended. `failure` is the first unexpected error (already cancelled in flight). */
export interface UnitsOutcome {
  launched: number;
  failure: unknown;
}

/**
 * Runs `work` over `units` in `session`; never throws: the first unexpected error is returned as
 * `failure` (so the caller still writes its final manifest), after every launched unit settled.
 */
export async function runUnits<U, R = void>(
  session: UnitSession,
  units: Iterable<U> | AsyncIterable<U>,
  work: (unit: U, signal: AbortSignal, index: number) => Promise<R>,
  pool: UnitPool,
  commit?: (result: R, unit: U, index: number) => void,
): Promise<UnitsOutcome> {
  let launched = 0;
  try {
    await runPool(
      units,
      pool,
      (unit, index) => ((launched += 1), work(unit, session.signal, index)),
      {
        halted: () => session.halted(),
        expected: (error) => pool.expected?.(error, session.signal) ?? false,
        onFailure: () => session.cancel(),
      },
      commit,
    );
    return { launched, failure: null };
  } catch (error) {
    return { launched, failure: error ?? new Error('a unit failed') };
  }
}
