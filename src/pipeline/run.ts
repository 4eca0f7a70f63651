/**
 * `runEvaluation`: the one orchestrator. It composes named steps — select, resume, predict,
 * judge, persist, finalise — and computes nothing itself.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Case } from '../dataset/case.js';
import type { Judge } from '../judge/judge.js';
import type { PromptOptions } from '../settings/prompt.js';
import { SETTINGS } from '../settings/index.js';
import { APB_VERSION } from '../version.js';
import { isFatal, judgePrediction, plannerPromptOf, predict, type CaseContext } from './evaluate-case.js';
import type { RunReporter } from './events.js';
import { judgementKey, predictionFingerprint } from './fingerprint.js';
import { assertSameIdentity, datasetContentHash, readManifest, writeManifest, type Manifest, type ManifestIdentity } from './manifest.js';
import type { Planner } from './planner.js';
import { recountRun } from './recount.js';
import { JsonlResultsStore } from './results-store.js';
import { dropErrorOutcomes, loadResumeState, type ResumeState } from './resume.js';
import { checkSelection, selectedCases, type Selection } from './select-cases.js';
import { emptyCaseInput } from './prompt-versions.js';

export interface ResolvedRun {
  outDir: string;
  selection: Selection;
  concurrency: number;
  promptOptions: PromptOptions;
  skipInvalid: boolean;
  retryErrors: boolean;
  baseUrl: string | null;
  judgeBaseUrl: string | null;
  judgeBlind: boolean;
  judgeVersion: string;
  judgeIds: string[];
}

export interface RunDependencies {
  planner: Planner;
  judge: Judge;
  reporter?: RunReporter;
  signal?: AbortSignal;
  now?: () => Date;
}

export interface RunSummary {
  dir: string;
  total: number;
  alreadyDone: number;
  finished: number;
  invalidRecords: number;
  interrupted: boolean;
  manifest: Manifest;
}

async function identityOf(run: ResolvedRun, planner: Planner): Promise<ManifestIdentity> {
  const prompt_versions = Object.fromEntries(
    run.selection.splits.map((split) => [split, SETTINGS[split].buildPrompt(emptyCaseInput(split), run.promptOptions).promptVersion]),
  );
  return {
    dataset_content_hash: await datasetContentHash(run.selection.datasetDir, run.selection.splits),
    tested_model: planner.id,
    base_url: run.baseUrl,
    judges: run.judgeIds,
    judge_base_url: run.judgeBaseUrl,
    judge_version: run.judgeVersion,
    protocol: run.promptOptions.protocol,
    allow_refusal: run.promptOptions.allowRefusal,
    judge_blind: run.judgeBlind,
    prompt_versions,
    sampling: planner.sampling,
  };
}

function startManifest(run: ResolvedRun, identity: ManifestIdentity, previous: Manifest | null, now: Date): Manifest {
  const { selection } = run;
  return {
    apb_version: APB_VERSION,
    schema_version: 1,
    status: 'running',
    created_at: previous?.created_at ?? now.toISOString(),
    updated_at: now.toISOString(),
    finished_at: null,
    dataset: { path: selection.datasetDir, content_hash: identity.dataset_content_hash },
    splits: selection.splits,
    selection: {
      limit: selection.limitPerSplit ?? null,
      ids: selection.ids ? [...selection.ids] : null,
      shard: selection.shard ? `${selection.shard.index}/${selection.shard.count}` : null,
      repeats: selection.repeats,
    },
    identity: previous ? { ...identity, prompt_versions: { ...previous.identity.prompt_versions, ...identity.prompt_versions } } : identity,
    counts: previous?.counts ?? { cases: 0, invalid_records: 0, resumed: 0, predictions: { ok: 0, error: 0, parse_error: 0 }, judgements: { ok: 0, judge_error: 0 } },
    usage: previous?.usage ?? { planner: { calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: null }, judge: { calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: null } },
  };
}

/** One (case, repeat): skip when finished, judge a saved prediction, or predict then judge. */
async function runPair(caseItem: Case, repeat: number, context: CaseContext, resume: ResumeState, store: JsonlResultsStore, reporter?: RunReporter): Promise<void> {
  const prompt = plannerPromptOf(caseItem, context.promptOptions);
  const fingerprint = predictionFingerprint({ case: caseItem, repeat, model: context.planner.id, promptVersion: prompt.promptVersion, sampling: context.planner.sampling });
  if (resume.finished.has(judgementKey(fingerprint, context.judge.id))) return;
  let prediction = resume.pending.get(fingerprint);
  if (!prediction) {
    prediction = await predict(caseItem, repeat, fingerprint, prompt, context);
    store.appendPrediction(prediction);
  }
  const judgement = await judgePrediction(caseItem, prediction, prompt, context);
  store.appendJudgement(judgement);
  reporter?.onCaseEnd?.({ id: caseItem.id, split: caseItem.split, repeat, plannerStatus: prediction.apb.status, judgeStatus: judgement.apb.status, correct: judgement.judgement.is_correct });
}

/** Streams the selection through a bounded pool; stops launching on abort or on a fatal error. */
async function executeAll(run: ResolvedRun, context: CaseContext, resume: ResumeState, store: JsonlResultsStore, reporter?: RunReporter): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let fatal: unknown = null;
  const launch = (caseItem: Case, repeat: number) => {
    const task = runPair(caseItem, repeat, context, resume, store, reporter)
      .catch((error: unknown) => {
        if (!(context.signal?.aborted && isFatal(error))) fatal ??= error;
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };
  outer: for await (const caseItem of selectedCases(run.selection)) {
    for (let repeat = 0; repeat < run.selection.repeats; repeat += 1) {
      while (inFlight.size >= run.concurrency) await Promise.race(inFlight);
      if (fatal || context.signal?.aborted) break outer;
      launch(caseItem, repeat);
    }
  }
  await Promise.all(inFlight);
  if (fatal) throw fatal;
}

export async function runEvaluation(run: ResolvedRun, deps: RunDependencies): Promise<RunSummary> {
  const now = deps.now ?? (() => new Date());
  const check = await checkSelection(run.selection, run.skipInvalid);
  const identity = await identityOf(run, deps.planner);
  const previous = readManifest(run.outDir);
  if (previous) assertSameIdentity(run.outDir, previous.identity, identity);
  if (run.retryErrors && existsSync(run.outDir)) dropErrorOutcomes(path.join(run.outDir, 'predictions.jsonl'), path.join(run.outDir, 'judgements.jsonl'));
  const store = new JsonlResultsStore(run.outDir);
  if (store.tornLinesDropped > 0) deps.reporter?.onWarning?.(`dropped ${store.tornLinesDropped} half-written line(s) left by an earlier crash`);
  const resume = await loadResumeState(store, deps.judge.id);
  const manifest = startManifest(run, identity, previous, now());
  writeManifest(run.outDir, manifest);
  const total = check.cases * run.selection.repeats;
  const alreadyDone = resume.finished.size;
  deps.reporter?.onRunStart?.({ dir: run.outDir, total, alreadyDone, invalidRecords: check.invalidRecords });
  const context: CaseContext = { planner: deps.planner, judge: deps.judge, promptOptions: run.promptOptions, ...(deps.signal ? { signal: deps.signal } : {}) };
  let failure: unknown = null;
  try {
    await executeAll(run, context, resume, store, deps.reporter);
  } catch (error) {
    failure = error;
  } finally {
    store.close();
  }
  const interrupted = Boolean(deps.signal?.aborted) && !failure;
  const finalManifest = await recountRun(run.outDir, manifest, { total, invalidRecords: check.invalidRecords, alreadyDone, status: failure ? 'failed' : interrupted ? 'interrupted' : 'complete', now: now() });
  writeManifest(run.outDir, finalManifest);
  if (failure) throw failure;
  deps.reporter?.onRunEnd?.({ dir: run.outDir, finished: finalManifest.counts.judgements.ok + finalManifest.counts.judgements.judge_error, interrupted });
  return { dir: run.outDir, total, alreadyDone, finished: finalManifest.counts.judgements.ok + finalManifest.counts.judgements.judge_error, invalidRecords: check.invalidRecords, interrupted, manifest: finalManifest };
}
