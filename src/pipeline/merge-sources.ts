/**
 * The run directories `apb merge` takes: each must be an apb run (a manifest), and all must be the
 * same run (dataset, splits, model, judges, prompts, protocol, sampling, selection) apart from the
 * shard and the endpoints. A difference is refused naming the field; shard numbering is checked.
 */
import type { Limits } from '../limits.js';
import { existsSync, lstatSync } from 'node:fs';
import type { SplitName } from '../dataset/case.js';
import path from 'node:path';
import { canonicalJson } from '../canonical-json.js';
import { ApbError, InputError, RunMismatchError, UsageError } from '../errors.js';
import { readManifest, type Manifest, type ManifestIdentity } from './manifest.js';

/** One input of a merge. */
export interface MergeSource {
  dir: string;
  manifest: Manifest;
  /** `{index, count}` parsed from `manifest.selection.shard`, null for an unsharded run. */
  shard: { index: number; count: number } | null;
}

/**
 * Identity fields a merge lets differ: the endpoints. Shards of one run often call the same model
 * on different machines (each its own vLLM); every source's endpoints are kept in `manifest.merge`.
 */
const MAY_DIFFER: ReadonlySet<keyof ManifestIdentity> = new Set(['base_url', 'judge_base_url']);

/** Reads a source's manifest; a directory that is not an apb run is a usage error. */
export function readMergeSource(dir: string, limits?: Limits): MergeSource {
  const resolved = path.resolve(dir);
  if (!existsSync(resolved)) throw new UsageError(`run directory not found: ${dir}`);
  let manifest: Manifest | null;
  try {
    manifest = readManifest(resolved, limits);
  } catch (error) {
    throw new ApbError(
      'input',
      `${path.join(dir, 'manifest.json')}: unreadable manifest (${(error as Error).message})`,
    );
  }
  if (!manifest)
    throw new UsageError(
      `${dir} has no manifest.json: apb merge takes run directories written by apb run`,
    );
  if (!manifest.identity)
    throw new ApbError('input', `${path.join(dir, 'manifest.json')}: identity: missing`);
  return { dir: resolved, manifest, shard: parseManifestShard(manifest.selection?.shard ?? null) };
}

function parseManifestShard(value: string | null): MergeSource['shard'] {
  if (!value) return null;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  return match ? { index: Number(match[1]), count: Number(match[2]) } : null;
}

/** The fields that make two run directories one run, as `name → canonical JSON`. */
function comparedFields(manifest: Manifest): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(manifest.identity)) {
    if (!MAY_DIFFER.has(key as keyof ManifestIdentity)) fields.set(key, canonicalJson(value));
  }
  fields.set('splits', canonicalJson(manifest.splits));
  fields.set('selection.limit', canonicalJson(manifest.selection?.limit ?? null));
  fields.set('selection.ids', canonicalJson(manifest.selection?.ids ?? null));
  fields.set('selection.repeats', canonicalJson(manifest.selection?.repeats ?? 1));
  return fields;
}

/** Refuses sources that are not one run: every differing field is named, with both values. */
export function assertMergeable(sources: readonly MergeSource[]): void {
  const [first, ...rest] = sources;
  if (!first) throw new UsageError('apb merge needs at least one run directory');
  const reference = comparedFields(first.manifest);
  const differences: string[] = [];
  for (const source of rest) {
    for (const [field, value] of comparedFields(source.manifest)) {
      const expected = reference.get(field);
      if (expected !== value)
        differences.push(
          `${field}: ${expected ?? '(absent)'} in ${first.dir}, ${value} in ${source.dir}`,
        );
    }
  }
  if (differences.length > 0)
    throw new RunMismatchError(
      `cannot merge: the directories are not shards of one run\n  ${differences.join('\n  ')}`,
    );
  assertShardNumbering(sources);
}

function assertShardNumbering(sources: readonly MergeSource[]): void {
  const sharded = sources.filter((source) => source.shard);
  const counts = new Set(sharded.map((source) => source.shard!.count));
  if (counts.size > 1) {
    throw new RunMismatchError(
      `cannot merge: shard counts differ (${sharded.map((source) => `${source.manifest.selection.shard} in ${source.dir}`).join(', ')})`,
    );
  }
  const byIndex = new Map<number, string>();
  for (const source of sharded) {
    const other = byIndex.get(source.shard!.index);
    if (other)
      throw new RunMismatchError(
        `cannot merge: shard ${source.manifest.selection.shard} is given twice (${other} and ${source.dir})`,
      );
    byIndex.set(source.shard!.index, source.dir);
  }
}

/** Shard numbers 1..N that no source holds (empty when the sources are not shards). */
export function missingShards(sources: readonly MergeSource[]): number[] {
  const count = sources.find((source) => source.shard)?.shard?.count;
  if (!count) return [];
  const present = new Set(sources.map((source) => source.shard?.index));
  return Array.from({ length: count }, (_, index) => index + 1).filter(
    (index) => !present.has(index),
  );
}

/** True for a symbolic link at `file` (even a dangling one). */
export const isLink = (file: string) => {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
};

/** A source's result file must be the file apb wrote: a planted link (to `/proc/self/environ`, …) is refused. */
export function assertPlainFile(file: string): void {
  const stat = lstatSync(file);
  if (stat.isSymbolicLink() || !stat.isFile())
    throw new InputError([
      {
        file,
        line: 1,
        field: '(file)',
        message: `${stat.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'} (apb merge reads only files apb wrote)`,
      },
    ]);
}

/** A line another run wrote: its model, judge or prompt is not the one its directory's manifest names. */
export function foreignField(
  line: Record<string, unknown>,
  kind: 'prediction' | 'judgement',
  manifest: Manifest,
): { field: string; message: string } | null {
  const { identity } = manifest;
  if (line.tested_model !== identity.tested_model)
    return {
      field: 'tested_model',
      message: `${JSON.stringify(line.tested_model)}, but the manifest's run tests ${JSON.stringify(identity.tested_model)}`,
    };
  if (kind === 'judgement' && !identity.judges.includes(String(line.judge_model)))
    return {
      field: 'judge_model',
      message: `${JSON.stringify(line.judge_model)}, not a judge of the manifest's run (${identity.judges.join(', ')})`,
    };
  const apb = (
    kind === 'prediction' ? line.apb : (line.apb as Record<string, unknown> | undefined)?.prediction
  ) as Record<string, unknown> | undefined;
  const expected = identity.prompt_versions[line.split as SplitName];
  if (apb?.prompt_version !== undefined && expected && apb.prompt_version !== expected)
    return {
      field: 'apb.prompt_version',
      message: `${JSON.stringify(apb.prompt_version)}, but the manifest's run prompts ${line.split} with ${JSON.stringify(expected)}`,
    };
  return null;
}
