/**
 * The manifest of a refined run directory: the source run's identity (dataset, tested model,
 * prompt versions, sampling) with this refinement's judge and `refinement` setup, which must match
 * on resume; plus a record of the source run (its directory and manifest hash at each invocation)
 * and of the selection.
 */
import type { Manifest, ManifestIdentity } from './manifest.js';
import type { RefineSetup } from './records.js';
import type { RefineSelection, RefineSource } from './refine-source.js';
import { carriedTotals, runningHead } from './run-manifest.js';

/** The judge and endpoint choices of one refinement (the rest of the identity is the source's). */
export interface RefineJudging {
  judgeIds: string[];
  judgeVersion: string;
  judgeBaseUrl: ManifestIdentity['judge_base_url'];
  judgeBlind: boolean;
  /** The tested model's endpoint(s) (the source's unless moved with --base-url). */
  baseUrl: ManifestIdentity['base_url'];
}

/** What the manifest records of the source run. */
export interface SourceRunRecord {
  dir: string;
  manifest_sha256: string;
  tested_model: string;
  judges: string[];
  judge_version: string;
  prompt_versions: ManifestIdentity['prompt_versions'];
  status: Manifest['status'];
  finished_at: string | null;
}

/** A refined run's manifest. */
export type RefineManifest = Manifest & {
  source_run: SourceRunRecord;
  refine_selection: {
    splits: string[] | null;
    ids: string[] | null;
    horizons: number[] | null;
    limit: number | null;
    sample: RefineSelection['sample'] | null;
    answers: number;
  };
};

/** What must be equal for a rerun to write into the same refined directory. */
export function refineIdentity(
  source: Manifest,
  setup: RefineSetup,
  judging: RefineJudging,
): ManifestIdentity {
  return {
    ...source.identity,
    base_url: judging.baseUrl,
    judges: judging.judgeIds,
    judge_base_url: judging.judgeBaseUrl,
    judge_version: judging.judgeVersion,
    judge_blind: judging.judgeBlind,
    refinement: setup,
  };
}

/** The `running` manifest of an invocation, keeping what an earlier one counted. */
export function startRefineManifest(
  source: RefineSource,
  identity: ManifestIdentity,
  selection: RefineSelection,
  previous: Manifest | null,
  now: Date,
): RefineManifest {
  const { manifest } = source;
  // The source's splits, which its dataset content hash covers (re-judging a refined run checks it).
  const splits = manifest.splits;
  return {
    ...runningHead(previous, now),
    dataset: { path: source.datasetDir, content_hash: manifest.dataset.content_hash },
    splits,
    selection: {
      limit: selection.limitPerSplit ?? null,
      ids: selection.ids ? [...selection.ids] : null,
      shard: null,
      repeats: manifest.selection.repeats,
    },
    identity,
    ...carriedTotals(previous),
    source_run: {
      dir: source.dir,
      manifest_sha256: source.manifestSha256,
      tested_model: manifest.identity.tested_model,
      judges: manifest.identity.judges,
      judge_version: manifest.identity.judge_version,
      prompt_versions: manifest.identity.prompt_versions,
      status: manifest.status,
      finished_at: manifest.finished_at,
    },
    refine_selection: {
      splits: selection.splits ? [...selection.splits] : null,
      ids: selection.ids ? [...selection.ids] : null,
      horizons: selection.horizons ? [...selection.horizons] : null,
      limit: selection.limitPerSplit ?? null,
      sample: selection.sample ?? null,
      answers: source.items.length,
    },
  };
}
