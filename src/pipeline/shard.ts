/**
 * `--shard I/N`: a stable partition of the cases by id. A case's shard depends on its id alone, so
 * reordering, filtering or appending to the dataset never moves a case between shards, and all
 * repeats of a case run in its shard (pass@k / pass^k stay computable per shard).
 */
import { createHash } from 'node:crypto';

/** One shard of N, 1-based. */
export interface Shard {
  index: number;
  count: number;
}

/** The 1-based shard of N that holds the case `id`: the first 32 bits of sha256(id), modulo N. */
export function shardOfId(id: string, count: number): number {
  // 2^32 is far above any shard count, so the modulo's bias is negligible (< N / 2^32).
  return (createHash('sha256').update(id, 'utf8').digest().readUInt32BE(0) % count) + 1;
}

/** Whether the case `id` belongs to `shard`. */
export function inShard(id: string, shard: Shard): boolean {
  return shard.count === 1 || shardOfId(id, shard.count) === shard.index;
}

/** `I/N` as written on the command line and in `manifest.json`. */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
