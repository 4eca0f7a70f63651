/**
 * `apb run --batch`: the run in passes. Each pass is an ordinary `runEvaluation` over the selection:
 * calls answered by collected batch results are recorded, the others are gathered into batches and
 * their cases left unrecorded. Between passes the batches are submitted and waited for. The first
 * pass gathers the planner calls; once they are answered the next gathers the judge calls (and a
 * judge's re-asks, if any) — so planner batches come first, then the judge's.
 */
import type { Batcher } from '../providers/batch/batcher.js';
import { ApbError } from '../errors.js';
import type { RunReporter } from './events.js';
import { runEvaluation, type ResolvedRun, type RunDependencies, type RunSummary } from './run.js';

/** More passes than any run needs (planner, judge, a judge re-ask, failed items retried twice): a guard, not a setting. */
const MAX_PASSES = 10;

/** What the CLI hears between passes. */
export interface BatchRunHooks {
  onPass?: (
    pass: number,
    pending: { deferred: number; outstanding: number; stranded: number },
  ) => void;
}

/** A call gathered into a provider batch (its case stays unrecorded until the batch ends): the batcher's error code, no vendor type. */
const isDeferred = (error: unknown) => error instanceof ApbError && error.code === 'batch-deferred';

/** The run's reporter for one pass: the start is told once, the end once by `runWithBatches`, cases as they end. */
function passReporter(reporter: RunReporter | undefined, pass: number): RunReporter | undefined {
  if (!reporter) return undefined;
  return {
    ...(pass === 1 && reporter.onRunStart
      ? { onRunStart: (event) => reporter.onRunStart!(event) }
      : {}),
    ...(reporter.onCaseEnd ? { onCaseEnd: (event) => reporter.onCaseEnd!(event) } : {}),
    ...(reporter.onWarning ? { onWarning: (message) => reporter.onWarning!(message) } : {}),
  };
}

/** Runs (or resumes) an evaluation through provider batches; returns the last pass's summary. */
export async function runWithBatches(
  run: ResolvedRun,
  deps: RunDependencies,
  batcher: Batcher,
  hooks: BatchRunHooks = {},
): Promise<RunSummary> {
  // A crash may have cut a batch's creation short: find it (or give it up) before any request is gathered again.
  await batcher.recover();
  let summary: RunSummary;
  for (let pass = 1; ; pass += 1) {
    batcher.startPass();
    // A batch ended by --batch-timeout leaves its cases unrecorded: the run stays resumable, not complete.
    const waiting = () =>
      batcher.pending.deferred > 0 ||
      batcher.pending.outstanding > 0 ||
      batcher.pending.stranded > 0;
    summary = await runEvaluation(run, {
      ...deps,
      reporter: passReporter(deps.reporter, pass),
      batchPending: waiting,
      deferred: isDeferred,
    });
    await batcher.flush();
    const pending = batcher.pending;
    hooks.onPass?.(pass, pending);
    const stopped = summary.interrupted || deps.stop?.aborted || deps.signal?.aborted;
    if (stopped || (pending.deferred === 0 && pending.outstanding === 0) || pass >= MAX_PASSES)
      break;
    await batcher.waitAll(deps.stop);
    if (deps.stop?.aborted) {
      summary = await runEvaluation(run, {
        ...deps,
        reporter: passReporter(deps.reporter, pass + 1),
        batchPending: () => true,
        deferred: isDeferred,
      });
      break;
    }
  }
  deps.reporter?.onRunEnd?.({
    dir: summary.dir,
    finished: summary.finished,
    interrupted: summary.interrupted,
  });
  return summary;
}
