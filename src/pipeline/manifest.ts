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
import type { Limits } from '../limits.js';
import type { Usage } from '../providers/provider.js';
import { canonicalJson } from '../canonical-json.js';
import {
  checkRunFileValue,
  type ManifestIdentitySchema,
  type ManifestKeysSchema,
  type MergeRecordSchema,
  type UsageTotalsSchema,
} from '../rundir/schemas/index.js';
import type { z } from 'zod';

/** Everything that must be equal for two invocations to write into one directory (`rundir/schemas/manifests.ts`). */
export type ManifestIdentity = Omit<z.infer<typeof ManifestIdentitySchema>, 'prompt_versions'> & {
  prompt_versions: Partial<Record<SplitName, string>>;
};

/** Usage totals of one role. */
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

/** `manifest.json`: the type of its schema, with split names typed. */
export type Manifest = Omit<z.infer<typeof ManifestKeysSchema>, 'splits' | 'identity'> & {
  splits: SplitName[];
  identity: ManifestIdentity;
};

/** What `manifest.json` of a merged directory records about its sources. */
export type MergeRecord = z.infer<typeof MergeRecordSchema>;

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

/** The run's manifest (null when there is none), read under `limits`' JSON cap. */
export function readManifest(dir: string, limits?: Limits): Manifest | null {
  const file = manifestPath(dir);
  if (!existsSync(file)) return null;
  let value: unknown;
  try {
    value = parseUntrustedJson(readFileSync(file, 'utf8'), limits?.jsonDepth);
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
  // The one schema of manifest.json (rundir/schemas/manifests.ts): a damaged member names its field.
  const checked = checkRunFileValue('manifest', value);
  if (!checked.ok)
    throw new InputError([
      {
        file,
        line: 1,
        field: checked.field,
        message: `${checked.message}; use another --out, or move the damaged manifest.json away`,
      },
    ]);
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
