/** Exit codes of the contract and the outcome a command reports back to `main`. */

/** 0 done, 1 failure, 2 bad arguments or input, 3 below a `--fail-under` gate, 130 interrupted. */
export const EXIT = { ok: 0, failure: 1, usage: 2, belowGate: 3, interrupted: 130 } as const;

export interface CommandOutcome {
  exitCode: number;
}
