/**
 * A finished run's saved predictions, made judgeable again without the planner: the run's manifest
 * names the dataset (refused when its content hash differs), each prediction's case is read back by
 * id, and the planner's exact prompt is rebuilt with the run's prompt options and checked against
 * the recorded prompt version and fingerprint. Everything is validated before any judge is called.
 */
import type { Limits } from '../limits.js';
import { checkRunFileValue } from '../rundir/schemas/index.js';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Case } from '../dataset/case.js';
import { readCases } from '../dataset/read-cases.js';
import { InputError, RunMismatchError, UsageError, type InputIssue } from '../errors.js';
import { DEFAULT_PROMPT_OPTIONS, type Prompt, type PromptOptions } from '../settings/prompt.js';
import { plannerPromptOf } from './evaluate-case.js';
import { predictionFingerprint } from './fingerprint.js';
import { datasetContentHash } from '../dataset/content-hash.js';
import { readManifest, type Manifest } from './manifest.js';
import type { PredictionLine } from './records.js';
import { readJsonLines } from './results-store.js';

/** One saved prediction with its case and the planner prompt it was made from. */
export interface SavedPrediction {
  caseItem: Case;
  prediction: PredictionLine;
  prompt: Prompt;
}

/** A run ready to be re-judged. */
export interface SavedRun {
  manifest: Manifest;
  datasetDir: string;
  promptOptions: PromptOptions;
  items: SavedPrediction[];
}

/** The run's manifest; a directory without one was not written by `apb run`. */
function manifestOf(runDir: string, limits: Limits | undefined): Manifest {
  const manifest = readManifest(runDir, limits);
  if (!manifest)
    throw new UsageError(
      `${runDir} has no manifest.json: expected a run directory written by apb run`,
    );
  if (!existsSync(path.join(runDir, 'predictions.jsonl')))
    throw new UsageError(`${runDir} has no predictions.jsonl: it holds no saved answer`);
  return manifest;
}

/** The dataset the run used (or `dataDir`), refused when its content differs from the manifest's hash. */
async function datasetOf(
  runDir: string,
  manifest: Manifest,
  dataDir: string | null,
): Promise<string> {
  const dir = path.resolve(dataDir ?? manifest.dataset.path);
  if (!existsSync(path.join(dir, 'data')) || !statSync(dir).isDirectory()) {
    throw new UsageError(
      `dataset of ${runDir} not found at ${dir} (expected DIR/data/{split}.jsonl): give its current place with --data DIR`,
    );
  }
  const hash = await datasetContentHash(dir, manifest.splits);
  if (hash !== manifest.dataset.content_hash) {
    throw new RunMismatchError(
      `the dataset at ${dir} is not the one ${runDir} was run on (content hash ${hash.slice(0, 12)}…, the run's ${manifest.dataset.content_hash.slice(0, 12)}…): re-judging and refining need the same cases; give the run's dataset with --data DIR`,
    );
  }
  return dir;
}

/**
 * Reads the run's predictions (and its dataset, under `limits`) and rebuilds each one's case and
 * prompt; every mismatch is an input issue.
 */
export async function loadSavedRun(
  runDir: string,
  dataDir: string | null,
  limits?: Limits,
): Promise<SavedRun> {
  const manifest = manifestOf(runDir, limits);
  const datasetDir = await datasetOf(runDir, manifest, dataDir);
  const promptOptions: PromptOptions = {
    ...DEFAULT_PROMPT_OPTIONS,
    protocol: manifest.identity.protocol,
    allowRefusal: manifest.identity.allow_refusal,
  };
  const file = path.join(runDir, 'predictions.jsonl');
  const issues: InputIssue[] = [];
  const lines = await predictionLines(file, issues, limits);
  const ids = new Set(lines.map(({ prediction }) => String(prediction.id)));
  const cases = await casesById(datasetDir, manifest.splits, ids, limits);
  const run = { manifest, datasetDir, promptOptions };
  const items: SavedPrediction[] = [];
  for (const { line, prediction } of lines) {
    const rebuilt = rebuild(prediction, cases.get(String(prediction.id)), run);
    if ('field' in rebuilt) issues.push({ file, line, ...rebuilt });
    else items.push(rebuilt);
  }
  if (issues.length > 0) throw new InputError(issues);
  return { ...run, items };
}

/** The prediction lines of `file` that pass its schema; every other line becomes an issue. */
async function predictionLines(
  file: string,
  issues: InputIssue[],
  limits: Limits | undefined,
): Promise<{ line: number; prediction: PredictionLine }[]> {
  const lines: { line: number; prediction: PredictionLine }[] = [];
  const onBadLine = (line: number, message: string) =>
    issues.push({ file, line, field: '(line)', message });
  for await (const { line, value } of readJsonLines(file, onBadLine, limits)) {
    // The one schema of predictions.jsonl (rundir/schemas/result-lines.ts): FILE:LINE: field: message.
    const checked = checkRunFileValue('predictions', value);
    if (!checked.ok)
      issues.push({
        file,
        line,
        field: checked.field,
        message: `${checked.message} (not a prediction line written by apb run)`,
      });
    else lines.push({ line, prediction: checked.value as unknown as PredictionLine });
  }
  return lines;
}

/** The cases of these ids in the run's splits of the dataset, by id. */
async function casesById(
  datasetDir: string,
  splits: Manifest['splits'],
  ids: Set<string>,
  limits: Limits | undefined,
): Promise<Map<string, Case>> {
  const cases = new Map<string, Case>();
  for await (const item of readCases(datasetDir, { splits, ids, limits }))
    if (item.kind === 'case') cases.set(item.case.id, item.case);
  return cases;
}

/**
 * One prediction with its case and the planner prompt rebuilt, or the field that does not match:
 * a case gone from the dataset, another prompt version, or a fingerprint the case no longer gives.
 */
function rebuild(
  prediction: PredictionLine,
  caseItem: Case | undefined,
  run: Omit<SavedRun, 'items'>,
): SavedPrediction | Pick<InputIssue, 'field' | 'message'> {
  if (!caseItem)
    return {
      field: 'id',
      message: `case "${prediction.id}" is not in the dataset at ${run.datasetDir}`,
    };
  const prompt = plannerPromptOf(caseItem, run.promptOptions);
  if (prompt.promptVersion !== prediction.apb.prompt_version)
    return {
      field: 'apb.prompt_version',
      message: `the planner prompt cannot be rebuilt: it was ${prediction.apb.prompt_version}, this apb builds ${prompt.promptVersion}`,
    };
  const fingerprint = predictionFingerprint({
    case: caseItem,
    repeat: prediction.apb.repeat,
    model: prediction.tested_model,
    promptVersion: prompt.promptVersion,
    sampling: run.manifest.identity.sampling,
  });
  if (fingerprint !== prediction.apb.fingerprint)
    return {
      field: 'apb.fingerprint',
      message: `does not match case "${prediction.id}" as the dataset holds it now, with the run's model and sampling`,
    };
  return { caseItem, prediction, prompt };
}
