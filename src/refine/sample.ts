/**
 * The paper's refinement subset (official-harness-audit.md §2.7): a fixed number of cases per
 * source of each split (25 per source, and 5 per subset of the real-traffic source: 150 per
 * regime). Two orders: `file` (the paper's — the official configs take the first N of each source's
 * file) keeps the first N cases of a group in dataset order; `hashed` orders a group by a hash of
 * (seed, split, id), so the choice does not depend on file order and another seed gives another draw.
 */
import { createHash } from 'node:crypto';
import type { Facets } from '../dataset/case.js';
import { UsageError } from '../errors.js';

/** How many cases to keep per group. */
export interface SampleSpec {
  /** Cases per (split, source). */
  perSource: number;
  /** Sources sampled per subset instead, with the count per (split, source, subset). */
  perSubset?: Readonly<Record<string, number>>;
  /** `file`: the first N in input order (the paper's); `hashed` (default): by hash of (seed, split, id). */
  order?: 'file' | 'hashed';
  seed: string;
}

/** Names the real-traffic source goes by (the release's `real-traffic`, the legacy code's `skywork`). */
export const REAL_TRAFFIC_SOURCES = ['real-traffic', 'real_traffic', 'skywork'] as const;

/** The paper's sample: 25 per source, 5 per real-traffic subset, in file order. */
export const PAPER_SAMPLE: SampleSpec = {
  perSource: 25,
  perSubset: Object.fromEntries(REAL_TRAFFIC_SOURCES.map((name) => [name, 5])),
  order: 'file',
  seed: '0',
};

/** Anything with a case id and facets (saved predictions, cases, rows). */
export interface Sampleable {
  id: string;
  facets: Pick<Facets, 'split' | 'source' | 'sourceSubset'>;
}

const rank = (seed: string, split: string, id: string) =>
  createHash('sha256').update(`${seed}\u0000${split}\u0000${id}`).digest('hex');

/** The items of the sampled cases (every repeat of a chosen case), in their input order. */
export function sampleBySource<T extends Sampleable>(items: readonly T[], spec: SampleSpec): T[] {
  const groups = new Map<string, { quota: number; ids: Set<string> }>();
  for (const item of items) {
    const { split, source, sourceSubset } = item.facets;
    const subsetQuota = source !== null ? spec.perSubset?.[source] : undefined;
    const groupKey = JSON.stringify([
      split,
      source,
      subsetQuota !== undefined ? sourceSubset : null,
    ]);
    let group = groups.get(groupKey);
    if (!group)
      groups.set(groupKey, (group = { quota: subsetQuota ?? spec.perSource, ids: new Set() }));
    group.ids.add(item.id);
  }
  const chosen = new Set<string>();
  for (const [groupKey, group] of groups) {
    const split = (JSON.parse(groupKey) as string[])[0]!;
    // A Set keeps first-seen order: the file order of the input.
    const ranked =
      spec.order === 'file'
        ? [...group.ids]
        : [...group.ids]
            .map((id) => ({ id, rank: rank(spec.seed, split, id) }))
            .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
            .map(({ id }) => id);
    for (const id of ranked.slice(0, group.quota)) chosen.add(`${split}\u0000${id}`);
  }
  return items.filter((item) => chosen.has(`${item.facets.split}\u0000${item.id}`));
}

/** Parses `SOURCE:N` (the `--sample-per-subset` value) into a source and a count; null when malformed. */
export function parseSubsetQuota(value: string): { source: string; count: number } | null {
  const index = value.lastIndexOf(':');
  const source = value.slice(0, index).trim();
  const count = Number(value.slice(index + 1));
  return index > 0 && source && Number.isInteger(count) && count > 0 ? { source, count } : null;
}

/** The sample flags of `apb refine`. */
export interface SampleFlags {
  sample?: string;
  samplePerSource?: number;
  samplePerSubset?: string[];
  seed: string;
}

/**
 * The sample flags: `--sample paper` (25 per source, 5 per real-traffic subset, first in file
 * order), `--sample hashed` (the same quotas drawn by hash of `--seed`), `--sample-per-source N`
 * alone (hashed, as before); `--sample-per-source` / `--sample-per-subset` override the quotas.
 */
export function sampleFromFlags(options: SampleFlags): SampleSpec | undefined {
  if (options.sample !== undefined && options.sample !== 'paper' && options.sample !== 'hashed')
    throw new UsageError(`--sample takes paper or hashed (got "${options.sample}")`);
  if (options.samplePerSubset && options.samplePerSource === undefined && !options.sample)
    throw new UsageError(
      '--sample-per-subset goes with --sample-per-source N (the count for every other source) or --sample',
    );
  if (options.sample === undefined && options.samplePerSource === undefined) return undefined;
  const perSubset: Record<string, number> = options.samplePerSubset
    ? {}
    : { ...(options.sample ? PAPER_SAMPLE.perSubset : {}) };
  for (const value of options.samplePerSubset ?? []) {
    const quota = parseSubsetQuota(value);
    if (!quota)
      throw new UsageError(
        `--sample-per-subset expects SOURCE:N with N a positive integer (got "${value}")`,
      );
    perSubset[quota.source] = quota.count;
  }
  return {
    perSource: options.samplePerSource ?? PAPER_SAMPLE.perSource,
    perSubset,
    order: options.sample === 'paper' ? 'file' : 'hashed',
    seed: options.seed,
  };
}
