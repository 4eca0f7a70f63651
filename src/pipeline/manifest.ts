/**
 * The run manifest (`manifest.json`): what produced a run directory. Its identity part must match
 * on resume; selection (limit, ids, shard, repeats) may grow, because fingerprints keep resume exact.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../atomic-write.js';
import path from 'node:path';
import type { SplitName } from '../dataset/case.js';
import { InputError, RunMismatchError } from '../errors.js';
import { parseUntrustedJson } from '../json-depth.js';
import type { EndpointStats } from '../providers/endpoints.js';
import type { SamplingParams, Usage } from '../providers/provider.js';
import { canonicalJson } from '../canonical-json.js';
import type { RefineSetup } from './records.js';

/** Everything that must be equal for two invocations to write into one directory. */
export interface ManifestIdentity {
  dataset_content_hash: string;
  tested_model: string;
  /** One endpoint's URL, or the list of a balanced fleet (`--base-url` given several times). */
  base_url: string | string[] | null;
  judges: string[];
  judge_base_url: string | string[] | null;
  judge_version: string;
  protocol: 'paper' | 'official';
  allow_refusal: boolean;
  judge_blind: boolean;
  prompt_versions: Partial<Record<SplitName, string>>;
  sampling: SamplingParams;
  /** `apb refine` directories: how the answers were refined. */
  refinement?: RefineSetup;
}

/** Usage totals of one role. */
export interface UsageTotals {
  calls: number;
  cached_calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

export interface Manifest {
  apb_version: string;
  schema_version: number;
  /** `stopped-budget`: `--max-cost` stopped new calls; what is missing is resumable. */
  status: 'running' | 'complete' | 'interrupted' | 'stopped-budget' | 'failed';
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  dataset: { path: string; content_hash: string };
  splits: SplitName[];
  selection: { limit: number | null; ids: string[] | null; shard: string | null; repeats: number };
  identity: ManifestIdentity;
  counts: {
    cases: number;
    invalid_records: number;
    resumed: number;
    predictions: { ok: number; error: number; parse_error: number };
    judgements: { ok: number; judge_error: number };
    /** Finished case runs per failure reason (`planner client 404`, `parse: …`, `judge …`; result-rows.ts `failureReasonOf`). */
    failure_reasons?: Record<string, number>;
  };
  /** `prices_as_of`: the `as_of` date of `data/prices.json`, which every `cost_usd` was computed with. */
  usage: {
    planner: UsageTotals;
    judge: UsageTotals;
    critic?: UsageTotals;
    prices_as_of?: string | null;
  };
  /** The latest invocation's progress basis: pairs selected, pairs already finished when it started, and when (the viewer's "N of M, ETA"). */
  progress?: { total: number; already_done: number; started_at: string };
  /** The `--max-cost` budget of the latest invocation, when one was given. */
  budget?: { max_cost_usd: number; spent_usd: number; refused_calls: number; stopped: boolean };
  /** The latest invocation's counts per endpoint (requests, 429s, failures, concurrency limits, times set aside). */
  endpoints?: EndpointStats[];
  /** Set by `apb merge`: the directories this one was merged from. */
  merge?: MergeRecord;
}

/** What `manifest.json` of a merged directory records about its sources. */
export interface MergeRecord {
  sources: {
    dir: string;
    shard: string | null;
    status: Manifest['status'];
    base_url: ManifestIdentity['base_url'];
    judge_base_url: ManifestIdentity['judge_base_url'];
  }[];
  /** Shards 1..N no source held; a merge of every shard has none. */
  missing_shards: number[];
  /** Lines left out because an earlier source already held the same (case, repeat) [and judge]. */
  duplicates_dropped: { predictions: number; judgements: number };
}

export function emptyUsageTotals(): UsageTotals {
  return { calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: null };
}

/** Adds one call's usage (a cache hit counts as a call but adds no tokens or cost). */
export function addUsage(
  totals: UsageTotals,
  usage: Usage | null,
  cached: boolean,
  costUsd: number | null,
): void {
  totals.calls += 1;
  if (cached) {
    totals.cached_calls += 1;
    return;
  }
  totals.input_tokens += usage?.inputTokens ?? 0;
  totals.output_tokens += usage?.outputTokens ?? 0;
  if (costUsd !== null) totals.cost_usd = (totals.cost_usd ?? 0) + costUsd;
}

export function manifestPath(dir: string): string {
  return path.join(dir, 'manifest.json');
}

export function readManifest(dir: string): Manifest | null {
  const file = manifestPath(dir);
  if (!existsSync(file)) return null;
  let value: unknown;
  try {
    value = parseUntrustedJson(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError([
      {
        file,
        line: 1,
        field: '(file)',
        message: `unreadable manifest (${(error as Error).message}); use another --out, or move the damaged manifest.json away`,
      },
    ]);
  }
  if (
    !value ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    typeof (value as Manifest).identity !== 'object'
  ) {
    throw new InputError([
      {
        file,
        line: 1,
        field: '(file)',
        message: 'not an apb run manifest (no "identity"); use another --out, or move it away',
      },
    ]);
  }
  return value as Manifest;
}

/** Writes atomically (temp file + rename, never through a symlink), so a crash never leaves a half manifest. */
export function writeManifest(dir: string, manifest: Manifest): void {
  writeFileAtomic(manifestPath(dir), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** `manifest.json` as the run-directory session reads and writes it. */
export const manifestFileCodec = { read: readManifest, write: writeManifest };

/** Throws a `RunMismatchError` naming every identity field that differs from the directory's manifest. */
export function assertSameIdentity(
  dir: string,
  existing: ManifestIdentity,
  wanted: ManifestIdentity,
): void {
  const differences: string[] = [];
  // Keys of either side: a field only the directory has (e.g. a refinement) is a difference too.
  for (const key of new Set([...Object.keys(existing), ...Object.keys(wanted)]) as Set<
    keyof ManifestIdentity
  >) {
    const before = existing[key];
    const after = wanted[key];
    if (key === 'prompt_versions') {
      const old = before as ManifestIdentity['prompt_versions'];
      for (const [split, version] of Object.entries(after as ManifestIdentity['prompt_versions'])) {
        if (old[split as SplitName] && old[split as SplitName] !== version)
          differences.push(`prompt version of ${split}: ${old[split as SplitName]} → ${version}`);
      }
    } else if (canonicalJson(before) !== canonicalJson(after)) {
      differences.push(`${key}: ${canonicalJson(before)} → ${canonicalJson(after)}`);
    }
  }
  if (differences.length > 0) {
    throw new RunMismatchError(
      `${dir} holds a run made with other settings; use another --out or the same settings.\n  ${differences.join('\n  ')}`,
    );
  }
}
