/**
 * The official harness's predictions as an apb run directory, so `apb judge` can judge them: a file of its
 * lines (the dataset fields, `tested_model`, `model_response`; no `apb`, no manifest.json) becomes
 * `predictions.jsonl` and `manifest.json` in a new directory. Each line's case is read back by id from the
 * dataset (the lines' own reference fields are not trusted), the planner prompt is rebuilt with the given
 * protocol, the answer is parsed afresh, and every problem is reported as FILE:LINE: field: message before
 * anything is written. No planner is called; usage is unknown (the official lines carry none).
 */
import type { Limits } from '../limits.js';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { SPLITS, type Case, type SplitName } from '../dataset/case.js';
import { datasetContentHash } from '../dataset/content-hash.js';
import { readCases } from '../dataset/read-cases.js';
import { InputError, UsageError, type InputIssue } from '../errors.js';
import { RESULT_SCHEMA_VERSION } from '../rundir/schemas/index.js';
import { SETTINGS } from '../settings/index.js';
import { DEFAULT_PROMPT_OPTIONS, type PromptOptions } from '../settings/prompt.js';
import { APB_VERSION } from '../version.js';
import { plannerPromptOf } from './evaluate-case.js';
import { predictionFingerprint } from './fingerprint.js';
import { emptyUsageTotals, readManifest, writeManifest, type Manifest } from './manifest.js';
import { emptyCaseInput } from './prompt-versions.js';
import type { PredictionLine } from './records.js';
import { readJsonLines } from './results-store.js';

/** One official line, checked: where it is and what it says. */
interface OfficialLine {
  line: number;
  value: Record<string, unknown> & { id: string; tested_model: string; model_response: string };
}

/** The predictions file a target names: the file itself, or `predictions.jsonl` of a directory. */
export function officialPredictionsFile(target: string): string {
  const file = statSync(target).isDirectory() ? path.join(target, 'predictions.jsonl') : target;
  if (!existsSync(file))
    throw new UsageError(`${target} has no manifest.json and no predictions.jsonl to import`);
  return file;
}

async function readOfficialLines(
  file: string,
  issues: InputIssue[],
  limits: Limits | undefined,
): Promise<OfficialLine[]> {
  const lines: OfficialLine[] = [];
  const onBadLine = (at: number, message: string) =>
    issues.push({ file, line: at, field: '(line)', message });
  for await (const { line, value } of readJsonLines(file, onBadLine, limits)) {
    const record = value as Record<string, unknown>;
    const missing = ['id', 'tested_model', 'model_response'].find(
      (key) => typeof record[key] !== 'string' || (key !== 'model_response' && !record[key]),
    );
    if (missing)
      issues.push({
        file,
        line,
        field: missing,
        message: 'expected a string (an official-harness prediction line)',
      });
    else lines.push({ line, value: record as OfficialLine['value'] });
  }
  return lines;
}

/** The apb prediction line of one official line and its case. */
function predictionOf(
  official: OfficialLine['value'],
  caseItem: Case,
  options: PromptOptions,
  jsonDepth: number | undefined,
): PredictionLine {
  const prompt = plannerPromptOf(caseItem, options);
  const { input } = caseItem;
  const parsed = SETTINGS[caseItem.split].parseAnswer(official.model_response, input, jsonDepth);
  return {
    ...caseItem.record,
    id: caseItem.id,
    split: caseItem.split,
    tested_model: official.tested_model,
    model_response: official.model_response,
    apb: {
      schema_version: RESULT_SCHEMA_VERSION,
      status: parsed.kind === 'parse_error' ? 'parse_error' : 'ok',
      repeat: 0,
      fingerprint: predictionFingerprint({
        case: caseItem,
        repeat: 0,
        model: official.tested_model,
        promptVersion: prompt.promptVersion,
        sampling: {},
      }),
      prompt_version: prompt.promptVersion,
      parsed: parsed.kind === 'parse_error' ? null : parsed,
      ...(parsed.kind === 'parse_error' ? { parse_error: parsed.message } : {}),
      usage: null,
      latency_ms: null,
      finish_reason: null,
      attempts: 0,
      cached: false,
      facets: caseItem.facets,
      dataset_line: caseItem.location.line,
    },
  } as PredictionLine;
}

/** The manifest of the imported directory: a complete run of the official model, judged by nobody yet. */
async function manifestOf(
  datasetDir: string,
  splits: SplitName[],
  model: string,
  predictions: readonly PredictionLine[],
  options: PromptOptions,
  now: Date,
): Promise<Manifest> {
  const hash = await datasetContentHash(datasetDir, splits);
  const count = (status: string) => predictions.filter((p) => p.apb.status === status).length;
  return {
    apb_version: APB_VERSION,
    schema_version: 1,
    status: 'complete',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    finished_at: now.toISOString(),
    dataset: { path: datasetDir, content_hash: hash },
    splits,
    selection: { limit: null, ids: null, shard: null, repeats: 1 },
    identity: {
      dataset_content_hash: hash,
      tested_model: model,
      base_url: null,
      judges: [],
      judge_base_url: null,
      judge_version: 'none',
      protocol: options.protocol,
      allow_refusal: options.allowRefusal,
      judge_blind: false,
      prompt_versions: Object.fromEntries(
        splits.map((split) => [
          split,
          SETTINGS[split].buildPrompt(emptyCaseInput(split), options).promptVersion,
        ]),
      ),
      sampling: {},
    },
    counts: {
      cases: predictions.length,
      invalid_records: 0,
      resumed: 0,
      predictions: { ok: count('ok'), error: 0, parse_error: count('parse_error') },
      judgements: { ok: 0, judge_error: 0 },
    },
    usage: { planner: emptyUsageTotals(), judge: emptyUsageTotals() },
  } as Manifest;
}

/**
 * Imports an official predictions file into `outDir` (kept as it is when an earlier import is there, so a
 * judging cut short resumes); returns the directory.
 */
export async function importOfficialPredictions(spec: {
  file: string;
  datasetDir: string;
  outDir: string;
  protocol: 'paper' | 'official';
  now?: Date;
  /** The caps the file and the dataset are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits;
}): Promise<string> {
  if (readManifest(spec.outDir, spec.limits)) return spec.outDir;
  if (existsSync(path.join(spec.outDir, 'predictions.jsonl')))
    throw new UsageError(
      `${spec.outDir} holds predictions without a manifest; give a new --out DIR`,
    );
  const issues: InputIssue[] = [];
  const lines = await readOfficialLines(spec.file, issues, spec.limits);
  const models = [...new Set(lines.map(({ value }) => value.tested_model))];
  if (models.length > 1)
    throw new UsageError(
      `${spec.file} holds the answers of ${models.length} models (${models.join(', ')}): import one file per model`,
    );
  const cases = new Map<string, Case>();
  const ids = new Set(lines.map(({ value }) => value.id));
  for await (const item of readCases(spec.datasetDir, { ids, limits: spec.limits }))
    if (item.kind === 'case') cases.set(item.case.id, item.case);
  const options: PromptOptions = { ...DEFAULT_PROMPT_OPTIONS, protocol: spec.protocol };
  const predictions: PredictionLine[] = [];
  for (const { line, value } of lines) {
    const caseItem = cases.get(value.id);
    if (!caseItem)
      issues.push({
        file: spec.file,
        line,
        field: 'id',
        message: `case "${value.id}" is not in the dataset at ${spec.datasetDir} (give it with --data DIR)`,
      });
    else predictions.push(predictionOf(value, caseItem, options, spec.limits?.jsonDepth));
  }
  if (issues.length > 0) throw new InputError(issues);
  if (predictions.length === 0) throw new UsageError(`${spec.file} holds no prediction line`);
  const splits = SPLITS.filter((split) => predictions.some((p) => p.split === split));
  const manifest = await manifestOf(
    spec.datasetDir,
    splits,
    models[0]!,
    predictions,
    options,
    spec.now ?? new Date(),
  );
  mkdirSync(spec.outDir, { recursive: true });
  writeFileAtomic(
    path.join(spec.outDir, 'predictions.jsonl'),
    predictions.map((line) => `${JSON.stringify(line)}\n`).join(''),
  );
  writeManifest(spec.outDir, manifest);
  return spec.outDir;
}
