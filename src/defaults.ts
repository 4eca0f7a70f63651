/**
 * The engine's defaults, declared once: every command's flags, the run spec's schema and the
 * provider stack take their defaults from here (docs/engine.md). A set per kind of work, because
 * they differ on purpose: a batch command keeps many short calls in flight and retries hard; an
 * exec run holds long conversations, so fewer at once; a server answers a client that retries
 * itself, with a longer timeout.
 */

/** `apb run`, `judge`, `refine`, `construct`: calls in flight, per-request timeout, retries. */
export const ENGINE_DEFAULTS = { concurrency: 8, timeoutMs: 120_000, maxRetries: 6 } as const;

/** `apb exec`: tasks in flight (and requests per endpoint), trials, steps per conversation (tau2: 200). */
export const EXEC_DEFAULTS = {
  concurrency: 4,
  timeoutMs: ENGINE_DEFAULTS.timeoutMs,
  maxRetries: ENGINE_DEFAULTS.maxRetries,
  trials: 1,
  maxSteps: 200,
} as const;

/** `apb serve`: requests in flight to the model, per-request timeout, retries of a planning call. */
export const SERVE_DEFAULTS = { concurrency: 8, timeoutMs: 300_000, maxRetries: 4 } as const;

/** A provider stack built without these options (the library's `buildProviderStack`). */
export const STACK_DEFAULTS = { concurrency: 4, timeoutMs: 300_000, maxRetries: 4 } as const;
