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
import { refineAnswer } from '../refine/refine-answer.js';
import { BudgetExceededError, costOfLine, pricesAsOf } from './budget.js';
import { judgePrediction } from './evaluate-case.js';
import { judgementKey } from './fingerprint.js';
import { assertSameIdentity, readManifest, writeManifest, type Manifest } from './manifest.js';
import { RunTally } from './recount.js';
import type { RunDependencies } from './run.js';
import type { InitialAnswer, PredictionLine, RefineSetup } from './records.js';
import { StepJournal } from './refine-journal.js';
import {
  refineIdentity,
  startRefineManifest,
  type RefineJudging,
  type RefineManifest,
} from './refine-manifest.js';
import {
  refinedFingerprint,
  refinedPredictionLine,
  unansweredJudgement,
  withRefinementOnTop,
} from './refine-record.js';
import type { RefineSelection, RefineSource } from './refine-source.js';
import { openResultStores, RUN_MANIFEST } from './run-stores.js';
import { runUnits } from '../rundir/run-units.js';
import { openSession, type RunSession, type UnitsEnd } from '../rundir/session.js';
import type { Limits } from '../limits.js';
import { dropErrorOutcomes, loadResumeState, type ResumeState } from './resume.js';
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

interface Context {
  request: RefineRunRequest;
  deps: RefineRunDependencies;
  journal: StepJournal;
  resume: ResumeState;
  signal: AbortSignal;
  appendPrediction(line: PredictionLine, item: SavedPrediction): void;
  appendJudgement(line: ReturnType<typeof withRefinementOnTop>, item: SavedPrediction): void;
}

/** The verdict on the initial answer under this run's judge: the source's, one judged earlier here, or a judge call now. */
async function initialOf(
  item: SavedPrediction,
  fingerprint: string,
  context: Context,
): Promise<InitialAnswer> {
  const { prediction } = item;
  const { judge } = context.deps;
  const base = {
    model_response: prediction.model_response,
    status: prediction.apb.status,
    judge: judge.id,
  };
  if (prediction.apb.status === 'error')
    return { ...base, is_correct: false, grade: 0, judge_status: 'none', judged_in: 'source' };
  const verdict = context.request.source.verdicts.get(`${prediction.apb.fingerprint}|${judge.id}`);
  if (verdict)
    return {
      ...base,
      is_correct: verdict.is_correct,
      grade: verdict.grade,
      judge_status: verdict.status,
      judged_in: 'source',
    };
  const journaled = context.journal.initialOf(fingerprint);
  if (journaled) return journaled;
  const line = await judgePrediction(item.caseItem, prediction, item.prompt, {
    judge,
    signal: context.signal,
    jsonDepth: context.request.limits?.jsonDepth,
  });
  const usage =
    judge.kind === 'llm' ? { judge_usage: line.apb.usage, judge_cached: line.apb.cached } : {};
  const initial: InitialAnswer = {
    ...base,
    is_correct: line.judgement.is_correct,
    grade: line.judgement.grade,
    judge_status: line.apb.status,
    judged_in: 'refine',
    ...usage,
  };
  context.journal.appendInitial(fingerprint, initial);
  return initial;
}

/** One saved answer: skip when finished, judge a saved refinement, or refine then judge. */
async function refineOne(item: SavedPrediction, context: Context): Promise<void> {
  const { request, deps } = context;
  const fingerprint = refinedFingerprint(item.prediction.apb.fingerprint, request.setup);
  if (context.resume.finished.has(judgementKey(fingerprint, deps.judge.id))) return;
  let prediction = context.resume.pending.get(fingerprint);
  if (!prediction) {
    const initial = await initialOf(item, fingerprint, context);
    const outcome =
      item.prediction.apb.status === 'error'
        ? null
        : await refineAnswer(
            {
              split: item.caseItem.split,
              input: item.caseItem.input,
              prompt: item.prompt,
              initialAnswer: item.prediction.model_response,
              reviser: deps.reviser,
              critic: deps.critic,
              mode: request.setup.mode,
              taxonomy: request.setup.taxonomy,
              rounds: request.setup.rounds,
              sampling: request.source.manifest.identity.sampling,
              criticSampling: request.setup.critic_sampling,
              json: request.source.promptOptions.protocol === 'official',
              allowRefusal: request.source.promptOptions.allowRefusal,
              repeat: item.prediction.apb.repeat,
              done: context.journal.stepsOf(fingerprint),
              onStep: (step) => context.journal.appendStep(fingerprint, step),
              jsonDepth: request.limits?.jsonDepth,
            },
            context.signal,
          );
    const source = { dir: request.source.dir, manifestSha256: request.source.manifestSha256 };
    prediction = refinedPredictionLine(
      { item, setup: request.setup, fingerprint, source, initial },
      outcome,
    );
    context.appendPrediction(prediction, item);
  }
  const answered = prediction.apb.status !== 'error';
  const judged = answered
    ? await judgePrediction(item.caseItem, prediction, item.prompt, {
        judge: deps.judge,
        signal: context.signal,
        jsonDepth: request.limits?.jsonDepth,
      })
    : unansweredJudgement(deps.judge, prediction);
  const line = withRefinementOnTop(judged);
  context.appendJudgement(line, item);
  deps.reporter?.onCaseEnd?.({
    id: item.caseItem.id,
    split: item.caseItem.split,
    repeat: item.prediction.apb.repeat,
    plannerStatus: prediction.apb.status,
    judgeStatus: line.apb.status,
    correct: line.judgement.is_correct,
  });
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
  const now = deps.now ?? (() => new Date());
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
  const stores = openResultStores(session);
  const journal = await StepJournal.open(request.outDir, request.limits);
  if (session.tornLinesDropped() > 0)
    deps.reporter?.onWarning?.(
      `dropped ${session.tornLinesDropped()} half-written line(s) left by an earlier crash`,
    );
  const resume = await loadResumeState(stores, deps.judge.id);
  const tally = new RunTally(costOfLine);
  await session.follow(stores.predictions, (line) => tally.addPrediction(line));
  await session.follow(stores.judgements, (line) => tally.addJudgement(line));
  const manifest = startRefineManifest(
    request.source,
    identity,
    request.selection,
    previous,
    now(),
  );
  session.running(manifest);
  const total = request.source.items.length;
  const alreadyDone = request.source.items.filter((item) =>
    resume.finished.has(
      judgementKey(
        refinedFingerprint(item.prediction.apb.fingerprint, request.setup),
        deps.judge.id,
      ),
    ),
  ).length;
  deps.reporter?.onRunStart?.({ dir: request.outDir, total, alreadyDone, invalidRecords: 0 });
  const sourceOf = (item: SavedPrediction) => ({
    record: item.caseItem.record,
    text: item.caseItem.recordText,
  });
  const context: Context = {
    request,
    deps,
    journal,
    resume,
    signal: session.signal,
    appendPrediction: (line, item) => stores.predictions.append(line, sourceOf(item)),
    appendJudgement: (line, item) => stores.judgements.append(line, sourceOf(item)),
  };
  let end: UnitsEnd;
  try {
    end = await runUnits(session, request.source.items, (item) => refineOne(item, context), {
      concurrency: request.concurrency,
      expected: (error, signal) =>
        error instanceof BudgetExceededError || Boolean(signal.aborted && isFatal(error)),
    });
  } finally {
    journal.close();
  }
  const failure = end.failure;
  const interrupted = session.interrupted(end);
  const status = session.statusOf(end);
  const counted = tally.manifest(manifest, {
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
  if (failure) throw failure;
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
