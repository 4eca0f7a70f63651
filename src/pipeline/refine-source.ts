/**
 * The source of `apb refine`: a finished run directory, read and never written. Its saved answers
 * are the initial answers (validated and matched to their cases and exact planner prompts as for
 * re-judging), its judgements the initial verdicts, and its manifest's hash the record of which
 * run it was. The selection (splits, ids, horizons, the paper's per-source sample, a per-split
 * limit) picks among the saved answers, in dataset order.
 */
import type { Limits } from '../limits.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SPLITS, type SplitName } from '../dataset/case.js';
import { UsageError } from '../errors.js';
import { sampleBySource, type SampleSpec } from '../refine/sample.js';
import type { PromptOptions } from '../settings/prompt.js';
import { sha256 } from './fingerprint.js';
import { readManifest, type Manifest } from './manifest.js';
import { readJsonLines } from './results-store.js';
import { loadSavedRun, type SavedPrediction } from './saved-predictions.js';

/** Which saved answers to refine. */
export interface RefineSelection {
  splits?: readonly SplitName[];
  ids?: ReadonlySet<string>;
  /** Step-wise horizons to keep (the paper refines next-1); other splits are unaffected. */
  horizons?: readonly number[];
  sample?: SampleSpec;
  /** First N cases of each split, in dataset order (after the other filters). */
  limitPerSplit?: number;
}

/** The source run's verdict on one saved answer under one judge. */
export interface SourceVerdict {
  is_correct: boolean | null;
  grade: number | null;
  status: 'ok' | 'judge_error';
}

/** A source run ready to refine from. */
export interface RefineSource {
  dir: string;
  manifest: Manifest;
  manifestSha256: string;
  datasetDir: string;
  promptOptions: PromptOptions;
  items: SavedPrediction[];
  /** Verdicts by `${prediction fingerprint}|${judge id}`, for the selected answers. */
  verdicts: Map<string, SourceVerdict>;
}

/** The selected items, in dataset order (split order, then file line, then repeat). */
export function selectItems(
  items: readonly SavedPrediction[],
  selection: RefineSelection,
): SavedPrediction[] {
  const order = (item: SavedPrediction) => [
    SPLITS.indexOf(item.caseItem.split),
    item.caseItem.location.line,
    item.prediction.apb.repeat,
  ];
  let chosen = items
    .filter((item) => !selection.splits || selection.splits.includes(item.caseItem.split))
    .filter((item) => !selection.ids || selection.ids.has(item.caseItem.id))
    .filter(
      (item) =>
        !selection.horizons ||
        item.caseItem.input.regime !== 'Step-wise' ||
        selection.horizons.includes(item.caseItem.input.horizon ?? 1),
    )
    .sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
    });
  if (selection.sample)
    chosen = sampleBySource(
      chosen.map((item) => ({ item, id: item.caseItem.id, facets: item.caseItem.facets })),
      selection.sample,
    ).map(({ item }) => item);
  if (selection.limitPerSplit !== undefined) {
    const kept = new Map<SplitName, Set<string>>();
    chosen = chosen.filter((item) => {
      const ids = kept.get(item.caseItem.split) ?? new Set<string>();
      kept.set(item.caseItem.split, ids);
      if (!ids.has(item.caseItem.id) && ids.size >= selection.limitPerSplit!) return false;
      ids.add(item.caseItem.id);
      return true;
    });
  }
  return chosen;
}

/** Reads the source's judgements of the selected answers. */
async function verdictsOf(
  dir: string,
  fingerprints: ReadonlySet<string>,
  limits: Limits | undefined,
): Promise<Map<string, SourceVerdict>> {
  const verdicts = new Map<string, SourceVerdict>();
  const file = path.join(dir, 'judgements.jsonl');
  for await (const { value } of readJsonLines(file, undefined, limits)) {
    const apb = value.apb as
      { status?: string; prediction?: { fingerprint?: unknown } } | undefined;
    const fingerprint = apb?.prediction?.fingerprint;
    if (
      typeof fingerprint !== 'string' ||
      !fingerprints.has(fingerprint) ||
      typeof value.judge_model !== 'string'
    )
      continue;
    const judgement = (value.judgement ?? {}) as { is_correct?: unknown; grade?: unknown };
    verdicts.set(`${fingerprint}|${value.judge_model}`, {
      is_correct: typeof judgement.is_correct === 'boolean' ? judgement.is_correct : null,
      grade: typeof judgement.grade === 'number' ? judgement.grade : null,
      status:
        apb?.status === 'judge_error' || typeof judgement.is_correct !== 'boolean'
          ? 'judge_error'
          : 'ok',
    });
  }
  return verdicts;
}

/** Loads the source run and applies the selection; an empty selection is a usage error. */
export async function loadRefineSource(
  runDir: string,
  dataDir: string | null,
  selection: RefineSelection,
  limits?: Limits,
): Promise<RefineSource> {
  const dir = path.resolve(runDir);
  if (readManifest(dir, limits)?.identity.refinement)
    throw new UsageError(
      `${dir} is itself a refined run: give apb refine the run directory of the initial answers`,
    );
  const saved = await loadSavedRun(dir, dataDir, limits);
  const items = selectItems(saved.items, selection);
  if (items.length === 0)
    throw new UsageError(
      `nothing to refine: ${dir} holds no saved answer for the selected splits, ids and horizons`,
    );
  const manifestSha256 = sha256(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const verdicts = await verdictsOf(
    dir,
    new Set(items.map((item) => item.prediction.apb.fingerprint)),
    limits,
  );
  return {
    dir,
    manifest: saved.manifest,
    manifestSha256,
    datasetDir: saved.datasetDir,
    promptOptions: saved.promptOptions,
    items,
    verdicts,
  };
}
