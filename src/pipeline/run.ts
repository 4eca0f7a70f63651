/**
 * `runEvaluation`: the one orchestrator. It composes named steps — select, resume, predict,
 * judge, persist, finalise — and computes nothing itself.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Case } from '../dataset/case.js';
import type { Judge } from '../judge/judge.js';
import { BatchDeferredError } from '../providers/batch/batcher.js';
import type { EndpointStats } from '../providers/endpoints.js';
import type { PromptOptions } from '../settings/prompt.js';
import { BudgetExceededError, costOfLine, pricesAsOf, type Budget } from './budget.js';
import {
  isFatal,
  judgePrediction,
  plannerPromptOf,
  predict,
  type CaseContext,
} from './evaluate-case.js';
import type { RunReporter } from './events.js';
import { judgementKey, predictionFingerprint } from './fingerprint.js';
import { assertSameIdentity, readManifest, writeManifest, type Manifest } from './manifest.js';
import type { Planner } from './planner.js';
import { tallyRun } from './recount.js';
import { JsonlResultsStore, type ResultsStore } from './results-store.js';
import { dropErrorOutcomes, loadResumeState, type ResumeState } from './resume.js';
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

/** Where finished lines go: the store, and the tally the manifest is made from. */
type LineSink = Pick<ResultsStore, 'appendPrediction' | 'appendJudgement'>;

/** When launching must stop, and how to cancel the calls in flight (a fatal error sends no further request). */
interface LaunchControl {
  halted(): boolean;
  cancel(): void;
}

/** Streams the selection through a bounded pool; stops launching on a stop, an abort, the budget or a fatal error. */
async function executeAll(
  run: ResolvedRun,
  check: SelectionCheck,
  context: CaseContext,
  resume: ResumeState,
  store: LineSink,
  control: LaunchControl,
  reporter?: RunReporter,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let fatal: unknown = null;
  // One waiter woken when a slot frees: `Promise.race(inFlight)` would attach a reaction to every
  // task in flight at every launch (concurrency × cases reactions over a run).
  let slotFreed: (() => void) | null = null;
  const launch = (caseItem: Case, repeat: number) => {
    const task = runPair(caseItem, repeat, context, resume, store, reporter)
      .catch((error: unknown) => {
        // A refused call, or one waiting on a provider batch, leaves its case unrecorded (resumable); an abort after a stop is expected.
        if (
          error instanceof BudgetExceededError ||
          error instanceof BatchDeferredError ||
          (context.signal?.aborted && isFatal(error))
        )
          return;
        fatal ??= error;
        control.cancel();
      })
      .finally(() => {
        inFlight.delete(task);
        slotFreed?.();
      });
    inFlight.add(task);
  };
  outer: for await (const caseItem of selectedCases(run.selection, check)) {
    for (let repeat = 0; repeat < run.selection.repeats; repeat += 1) {
      while (inFlight.size >= run.concurrency)
        await new Promise<void>((resolve) => (slotFreed = resolve));
      slotFreed = null;
      if (fatal || control.halted()) break outer;
      launch(caseItem, repeat);
    }
  }
  await Promise.all(inFlight);
  if (fatal) throw fatal;
}

function finalStatus(
  failure: unknown,
  interrupted: boolean,
  budget: Budget | undefined,
  batchPending: boolean,
): Manifest['status'] {
  if (failure) return 'failed';
  if (interrupted) return 'interrupted';
  if (batchPending) return 'running';
  return budget?.exhausted ? 'stopped-budget' : 'complete';
}

/** Runs (or resumes) an evaluation into `run.outDir` and returns what happened; the manifest is written even on failure. */
export async function runEvaluation(run: ResolvedRun, deps: RunDependencies): Promise<RunSummary> {
  const now = deps.now ?? (() => new Date());
  // The validation pass also hashes the files it reads (the run's identity), so they are read once before the first call.
  const check = await checkSelection(run.selection, run.skipInvalid);
  const identity = await identityOf(run, deps.planner, check.datasetHash);
  const previous = readManifest(run.outDir);
  if (previous) assertSameIdentity(run.outDir, previous.identity, identity);
  if (run.retryErrors && existsSync(run.outDir))
    dropErrorOutcomes(
      path.join(run.outDir, 'predictions.jsonl'),
      path.join(run.outDir, 'judgements.jsonl'),
    );
  const store = new JsonlResultsStore(run.outDir);
  if (store.tornLinesDropped > 0)
    deps.reporter?.onWarning?.(
      `dropped ${store.tornLinesDropped} half-written line(s) left by an earlier crash`,
    );
  const resume = await loadResumeState(store, deps.judge.id);
  // Counts and usage start from the lines already there and follow every append (no re-read at the end).
  const tally = await tallyRun(run.outDir, costOfLine);
  const sink: LineSink = {
    appendPrediction: (line, source) => (
      store.appendPrediction(line, source),
      tally.addPrediction(line)
    ),
    appendJudgement: (line, source) => (
      store.appendJudgement(line, source),
      tally.addJudgement(line)
    ),
  };
  const total = check.cases * run.selection.repeats;
  const alreadyDone = resume.finished.size;
  const manifest: Manifest = {
    ...startManifest(run, identity, previous, now()),
    progress: { total, already_done: alreadyDone, started_at: now().toISOString() },
  };
  writeManifest(run.outDir, manifest);
  deps.reporter?.onRunStart?.({
    dir: run.outDir,
    total,
    alreadyDone,
    invalidRecords: check.invalidRecords,
  });
  // Our own controller joins the caller's: a fatal error cancels the calls in flight.
  const cancel = new AbortController();
  const signal = deps.signal ? AbortSignal.any([deps.signal, cancel.signal]) : cancel.signal;
  const context: CaseContext = {
    planner: deps.planner,
    judge: deps.judge,
    promptOptions: run.promptOptions,
    signal,
  };
  const control: LaunchControl = {
    halted: () => Boolean(deps.stop?.aborted || signal.aborted || deps.budget?.exhausted),
    cancel: () => cancel.abort(),
  };
  let failure: unknown = null;
  try {
    await executeAll(run, check, context, resume, sink, control, deps.reporter);
  } catch (error) {
    failure = error;
  } finally {
    store.close();
    resume.pending.close?.();
  }
  const interrupted = Boolean(deps.stop?.aborted || deps.signal?.aborted) && !failure;
  const status = finalStatus(failure, interrupted, deps.budget, Boolean(deps.batchPending?.()));
  const recounted = tally.manifest(manifest, {
    total,
    invalidRecords: check.invalidRecords,
    alreadyDone,
    status,
    now: now(),
    pricesAsOf: pricesAsOf(),
  });
  const endpoints = deps.endpointStats?.() ?? [];
  const finalManifest: Manifest = {
    ...recounted,
    ...(deps.budget ? { budget: deps.budget.summary() } : {}),
    ...(endpoints.length > 0 ? { endpoints } : {}),
  };
  writeManifest(run.outDir, finalManifest);
  if (failure) throw failure;
  const finished = finalManifest.counts.judgements.ok + finalManifest.counts.judgements.judge_error;
  deps.reporter?.onRunEnd?.({ dir: run.outDir, finished, interrupted });
  return {
    dir: run.outDir,
    total,
    alreadyDone,
    finished,
    invalidRecords: check.invalidRecords,
    interrupted,
    status,
    manifest: finalManifest,
  };
}
