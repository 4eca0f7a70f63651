/**
 * `refineRun`: `apb refine` over a finished run. For each selected saved answer: the initial
 * verdict (the source's, or judged here), the refinement loop (refine/), the refined prediction
 * line, its judgement by the run's judge. Resumable at every step: finished lines are skipped, a
 * refined answer without a judgement is judged without refining again, and finished critiques
 * and revisions come back from the step journal. The source directory is only read.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isFatal, RunMismatchError, UsageError } from '../errors.js';
import type { Judge } from '../judge/judge.js';
import type { Provider } from '../providers/provider.js';
import type { Critic } from '../refine/critic.js';
import { BudgetExceededError, pricesAsOf } from './budget.js';
import { judgementKey } from './fingerprint.js';
import { assertSameIdentity, readManifest, type Manifest } from './manifest.js';
import type { RunTally } from './recount.js';
import type { RunDependencies } from './run.js';
import type { RefineSetup } from './records.js';
import { StepJournal } from './refine-journal.js';
import {
  refineIdentity,
  startRefineManifest,
  type RefineJudging,
  type RefineManifest,
} from './refine-manifest.js';
import { refineOne, type RefineContext } from './refine-one.js';
import { refinedFingerprint } from './refine-record.js';
import type { RefineSelection, RefineSource } from './refine-source.js';
import { RUN_MANIFEST, type ResultStores } from './run-stores.js';
import { runUnits } from '../rundir/run-units.js';
import { openSession, type RunSession, type UnitsEnd } from '../rundir/session.js';
import type { Limits } from '../limits.js';
import { dropErrorOutcomes, reopenResults, type ResumeState } from './resume.js';
import type { SavedPrediction } from './saved-predictions.js';

/** What `apb refine` asks for, resolved. */
export interface RefineRunRequest {
  source: RefineSource;
  selection: RefineSelection;
  outDir: string;
  setup: RefineSetup;
  judging: RefineJudging;
  concurrency: number;
  retryErrors: boolean;
  /** The caps the run files and the replies are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
}

/** The models of a refinement, and progress, interrupt signals, budget and clock as `apb run` takes them. */
export type RefineRunDependencies = Pick<
  RunDependencies,
  'reporter' | 'stop' | 'signal' | 'budget' | 'now' | 'lock'
> & {
  /** The tested model (revisions; critiques too in self mode). */
  reviser: Provider;
  critic: Critic | Provider;
  judge: Judge;
};

/** What happened. */
export interface RefineRunSummary {
  dir: string;
  total: number;
  alreadyDone: number;
  finished: number;
  interrupted: boolean;
  status: Manifest['status'];
  manifest: RefineManifest;
}

/** An existing directory must be this refinement's (resume); results without a manifest are refused. */
function checkOutDir(
  request: RefineRunRequest,
  identity: ReturnType<typeof refineIdentity>,
): Manifest | null {
  const { outDir, source } = request;
  if (path.resolve(outDir) === source.dir)
    throw new UsageError(
      `--out must not be the source run ${source.dir}: apb refine never writes into it`,
    );
  const previous = readManifest(outDir, request.limits);
  if (previous) assertSameIdentity(outDir, previous.identity, identity);
  else if (
    ['predictions.jsonl', 'judgements.jsonl'].some((file) => existsSync(path.join(outDir, file)))
  )
    throw new RunMismatchError(`${outDir} holds results without a manifest; give a new --out DIR`);
  return previous;
}

/** Refines (or resumes refining) the selected answers of a source run into `request.outDir`; the manifest is written even on failure. */
export async function refineRun(
  request: RefineRunRequest,
  deps: RefineRunDependencies,
): Promise<RefineRunSummary> {
  const identity = refineIdentity(request.source.manifest, request.setup, request.judging);
  const previous = checkOutDir(request, identity);
  if (request.retryErrors && previous)
    dropErrorOutcomes(
      path.join(request.outDir, 'predictions.jsonl'),
      path.join(request.outDir, 'judgements.jsonl'),
    );
  const session = openSession({
    dir: request.outDir,
    command: 'refine',
    manifest: RUN_MANIFEST,
    ...(deps.lock ? { heldLock: deps.lock } : {}),
    stop: deps.stop,
    signal: deps.signal,
    exhausted: () => Boolean(deps.budget?.exhausted),
    limits: request.limits,
  });
  try {
    return await refineIn(session, request, deps, identity, previous);
  } finally {
    session.close();
  }
}

/** The refinement inside its open session: resume, the answers through `runUnits`, the final manifest. */
async function refineIn(
  session: RunSession<Manifest>,
  request: RefineRunRequest,
  deps: RefineRunDependencies,
  identity: ReturnType<typeof refineIdentity>,
  previous: Manifest | null,
): Promise<RefineRunSummary> {
  const now = deps.now ?? (() => new Date());
  const state = await resumeIn(session, request, deps);
  const manifest = startRefineManifest(
    request.source,
    identity,
    request.selection,
    previous,
    now(),
  );
  session.running(manifest);
  const total = request.source.items.length;
  const alreadyDone = alreadyDoneOf(request, state.resume, deps.judge.id);
  deps.reporter?.onRunStart?.({ dir: request.outDir, total, alreadyDone, invalidRecords: 0 });
  const end = await refineAll(session, request, deps, state);
  const interrupted = session.interrupted(end);
  const status = session.statusOf(end);
  const counted = state.tally.manifest(manifest, {
    total,
    invalidRecords: 0,
    alreadyDone,
    status,
    now: now(),
    pricesAsOf: pricesAsOf(),
  }) as RefineManifest;
  const finalManifest: RefineManifest = deps.budget
    ? { ...counted, budget: deps.budget.summary() }
    : counted;
  session.finish(finalManifest);
  if (end.failure) throw end.failure;
  const finished = finalManifest.counts.judgements.ok + finalManifest.counts.judgements.judge_error;
  deps.reporter?.onRunEnd?.({ dir: request.outDir, finished, interrupted });
  return {
    dir: request.outDir,
    total,
    alreadyDone,
    finished,
    interrupted,
    status,
    manifest: finalManifest,
  };
}

/** What an open session holds: its stores, the step journal, the lines on file, their tally. */
interface Resumed {
  stores: ResultStores;
  journal: StepJournal;
  resume: ResumeState;
  tally: RunTally;
}

/** Opens the stores and the step journal, and reads back what an earlier attempt wrote. */
async function resumeIn(
  session: RunSession<Manifest>,
  request: RefineRunRequest,
  deps: RefineRunDependencies,
): Promise<Resumed> {
  const journal = await StepJournal.open(request.outDir, request.limits);
  const { stores, resume, tally } = await reopenResults(session, deps.judge.id, (message) =>
    deps.reporter?.onWarning?.(message),
  );
  return { stores, journal, resume, tally };
}

/** The selected answers whose refined judgement by this judge is already on file. */
function alreadyDoneOf(request: RefineRunRequest, resume: ResumeState, judgeId: string): number {
  return request.source.items.filter((item) =>
    resume.finished.has(
      judgementKey(refinedFingerprint(item.prediction.apb.fingerprint, request.setup), judgeId),
    ),
  ).length;
}

/** Every selected answer through `runUnits` (`refineOne`); the journal closes however they end. */
async function refineAll(
  session: RunSession<Manifest>,
  request: RefineRunRequest,
  deps: RefineRunDependencies,
  { stores, journal, resume }: Resumed,
): Promise<UnitsEnd> {
  const sourceOf = (item: SavedPrediction) => ({
    record: item.caseItem.record,
    text: item.caseItem.recordText,
  });
  const context: RefineContext = {
    request,
    deps,
    journal,
    resume,
    signal: session.signal,
    appendPrediction: (line, item) => stores.predictions.append(line, sourceOf(item)),
    appendJudgement: (line, item) => stores.judgements.append(line, sourceOf(item)),
  };
  try {
    return await runUnits(session, request.source.items, (item) => refineOne(item, context), {
      concurrency: request.concurrency,
      expected: (error, signal) =>
        error instanceof BudgetExceededError || Boolean(signal.aborted && isFatal(error)),
    });
  } finally {
    journal.close();
  }
}
