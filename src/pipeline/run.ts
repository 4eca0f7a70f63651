/**
 * `runEvaluation`: the one orchestrator. It composes named steps — select, resume, predict,
 * judge, persist, finalise — and computes nothing itself.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Case } from '../dataset/case.js';
import type { Judge } from '../judge/judge.js';
import type { Limits } from '../limits.js';
import type { EndpointStats } from '../providers/endpoints.js';
import type { PromptOptions } from '../settings/prompt.js';
import { BudgetExceededError, pricesAsOf, type Budget } from './budget.js';
import {
  isFatal,
  judgePrediction,
  plannerPromptOf,
  predict,
  type CaseContext,
} from './evaluate-case.js';
import type { RunReporter } from './events.js';
import { judgementKey, predictionFingerprint } from './fingerprint.js';
import { assertSameIdentity, type Manifest } from './manifest.js';
import type { Planner } from './planner.js';
import type { JudgementLine, PredictionLine } from './records.js';
import { dropErrorOutcomes, reopenResults, type ResumeState } from './resume.js';
import { RUN_MANIFEST } from './run-stores.js';
import type { LineSource } from '../rundir/jsonl-store.js';
import type { RunLock } from '../rundir/lock.js';
import { runUnits } from '../rundir/run-units.js';
import { withSession, type RunSession } from '../rundir/session.js';
import { identityOf, startManifest } from './run-manifest.js';
import {
  checkSelection,
  selectedCases,
  type Selection,
  type SelectionCheck,
} from './select-cases.js';

export interface ResolvedRun {
  outDir: string;
  selection: Selection;
  concurrency: number;
  promptOptions: PromptOptions;
  skipInvalid: boolean;
  retryErrors: boolean;
  baseUrl: string | readonly string[] | null;
  judgeBaseUrl: string | readonly string[] | null;
  judgeBlind: boolean;
  judgeVersion: string;
  judgeIds: string[];
  /** The caps the run directory's files are read back under; default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

export interface RunDependencies {
  planner: Planner;
  judge: Judge;
  reporter?: RunReporter;
  /** Soft stop (first Ctrl-C): no new case starts; cases in flight finish. */
  stop?: AbortSignal;
  /** Hard stop (second Ctrl-C): calls in flight are cancelled; their cases stay unrecorded. */
  signal?: AbortSignal;
  /** `--max-cost`: the gate inside the provider stacks; the run stops launching once it refuses a call. */
  budget?: Budget;
  now?: () => Date;
  /** `--batch`: whether calls are still waiting on provider batches (the manifest then stays `running`). */
  batchPending?: () => boolean;
  /** Counts per endpoint so far (the run's limiter pool), recorded in the final manifest. */
  endpointStats?: () => EndpointStats[];
  /** `--batch`: whether an error is a call deferred to a provider batch (its case stays unrecorded). */
  deferred?: (error: unknown) => boolean;
  /** The directory's lock when the caller took it (several directories locked together); else the run takes it. */
  lock?: RunLock;
}

export interface RunSummary {
  dir: string;
  total: number;
  alreadyDone: number;
  finished: number;
  invalidRecords: number;
  interrupted: boolean;
  status: Manifest['status'];
  manifest: Manifest;
}

/** One (case, repeat): skip when finished, judge a saved prediction, or predict then judge. */
async function runPair(
  caseItem: Case,
  repeat: number,
  context: CaseContext,
  resume: ResumeState,
  store: LineSink,
  reporter?: RunReporter,
): Promise<void> {
  const prompt = plannerPromptOf(caseItem, context.promptOptions);
  const fingerprint = predictionFingerprint({
    case: caseItem,
    repeat,
    model: context.planner.id,
    promptVersion: prompt.promptVersion,
    sampling: context.planner.sampling,
  });
  if (resume.finished.has(judgementKey(fingerprint, context.judge.id))) return;
  const source = { record: caseItem.record, text: caseItem.recordText };
  let prediction = resume.pending.get(fingerprint);
  if (!prediction) {
    prediction = await predict(caseItem, repeat, fingerprint, prompt, context);
    store.appendPrediction(prediction, source);
  }
  const judgement = await judgePrediction(caseItem, prediction, prompt, context);
  store.appendJudgement(judgement, source);
  reporter?.onCaseEnd?.({
    id: caseItem.id,
    split: caseItem.split,
    repeat,
    plannerStatus: prediction.apb.status,
    judgeStatus: judgement.apb.status,
    correct: judgement.judgement.is_correct,
  });
}

/** Where finished lines go: the stores (whose appends the tally follows). */
interface LineSink {
  appendPrediction(line: PredictionLine, source?: LineSource): void;
  appendJudgement(line: JudgementLine, source?: LineSource): void;
}

/** The (case, repeat) units of the selection, streamed (the selection is never held whole). */
async function* unitsOf(
  run: ResolvedRun,
  check: SelectionCheck,
): AsyncGenerator<{ caseItem: Case; repeat: number }> {
  for await (const caseItem of selectedCases(run.selection, check))
    for (let repeat = 0; repeat < run.selection.repeats; repeat += 1) yield { caseItem, repeat };
}

/** A refused call, one waiting on a provider batch, or an abort after a stop leaves its case unrecorded (resumable). */
function expectedError(deps: RunDependencies) {
  return (error: unknown, signal: AbortSignal) =>
    error instanceof BudgetExceededError ||
    Boolean(deps.deferred?.(error)) ||
    (signal.aborted && isFatal(error));
}

/** The manifest of the latest invocation, before its first case. */
function runningManifest(
  run: ResolvedRun,
  identity: Manifest['identity'],
  previous: Manifest | null,
  progress: { total: number; alreadyDone: number; now: Date },
): Manifest {
  return {
    ...startManifest(run, identity, previous, progress.now),
    progress: {
      total: progress.total,
      already_done: progress.alreadyDone,
      started_at: progress.now.toISOString(),
    },
  };
}

/** Resume state, the tally following both stores, and the sink the cases append through. */
async function openResults(session: RunSession<Manifest>, run: ResolvedRun, deps: RunDependencies) {
  if (run.retryErrors && existsSync(run.outDir))
    dropErrorOutcomes(
      path.join(run.outDir, 'predictions.jsonl'),
      path.join(run.outDir, 'judgements.jsonl'),
    );
  const { stores, resume, tally } = await reopenResults(session, deps.judge.id, (message) =>
    deps.reporter?.onWarning?.(message),
  );
  const sink: LineSink = {
    appendPrediction: (line, source) => stores.predictions.append(line, source),
    appendJudgement: (line, source) => stores.judgements.append(line, source),
  };
  return { resume, tally, sink };
}

/** Runs (or resumes) an evaluation into `run.outDir` and returns what happened; the manifest is written even on failure. */
export async function runEvaluation(run: ResolvedRun, deps: RunDependencies): Promise<RunSummary> {
  // The validation pass also hashes the files it reads (the run's identity), so they are read once before the first call.
  const check = await checkSelection(run.selection, run.skipInvalid);
  const identity = await identityOf(run, deps.planner, check.datasetHash);
  return withSession(
    {
      dir: run.outDir,
      command: 'run',
      manifest: RUN_MANIFEST,
      ...(deps.lock ? { heldLock: deps.lock } : {}),
      stop: deps.stop,
      signal: deps.signal,
      exhausted: () => Boolean(deps.budget?.exhausted),
      limits: run.limits,
    },
    async (session) => {
      if (session.previous) assertSameIdentity(run.outDir, session.previous.identity, identity);
      return evaluateIn(session, run, deps, check, identity);
    },
  );
}

/** The final manifest's budget and endpoint counts, when the run had them. */
function withRunExtras(manifest: Manifest, deps: RunDependencies): Manifest {
  const endpoints = deps.endpointStats?.() ?? [];
  return {
    ...manifest,
    ...(deps.budget ? { budget: deps.budget.summary() } : {}),
    ...(endpoints.length > 0 ? { endpoints } : {}),
  };
}

/** The evaluation inside its open session: resume, the cases through `runUnits`, the final manifest. */
async function evaluateIn(
  session: RunSession<Manifest>,
  run: ResolvedRun,
  deps: RunDependencies,
  check: SelectionCheck,
  identity: Manifest['identity'],
): Promise<RunSummary> {
  const now = deps.now ?? (() => new Date());
  const { resume, tally, sink } = await openResults(session, run, deps);
  const total = check.cases * run.selection.repeats;
  const alreadyDone = resume.finished.size;
  const manifest = runningManifest(run, identity, session.previous, {
    total,
    alreadyDone,
    now: now(),
  });
  session.running(manifest);
  deps.reporter?.onRunStart?.({
    dir: run.outDir,
    total,
    alreadyDone,
    invalidRecords: check.invalidRecords,
  });
  const context: CaseContext = {
    planner: deps.planner,
    judge: deps.judge,
    promptOptions: run.promptOptions,
    signal: session.signal,
    jsonDepth: run.limits?.jsonDepth,
  };
  const end = await runUnits(
    session,
    unitsOf(run, check),
    ({ caseItem, repeat }) => runPair(caseItem, repeat, context, resume, sink, deps.reporter),
    { concurrency: run.concurrency, expected: expectedError(deps) },
  );
  const interrupted = session.interrupted(end);
  const status = session.statusOf({
    failure: end.failure,
    pending: Boolean(deps.batchPending?.()),
  });
  const recounted = tally.manifest(manifest, {
    total,
    invalidRecords: check.invalidRecords,
    alreadyDone,
    status,
    now: now(),
    pricesAsOf: pricesAsOf(),
  });
  const finalManifest = withRunExtras(recounted, deps);
  session.finish(finalManifest);
  if (end.failure) throw end.failure;
  const finished = finalManifest.counts.judgements.ok + finalManifest.counts.judgements.judge_error;
  deps.reporter?.onRunEnd?.({ dir: run.outDir, finished, interrupted });
  const summary = { dir: run.outDir, total, alreadyDone, finished, interrupted, status };
  return { ...summary, invalidRecords: check.invalidRecords, manifest: finalManifest };
}
