/**
 * Seeded randomness for construction steps. Every draw comes from a stream keyed by the run's seed
 * and the item it is for (step, parent id, purpose), so one case's choices never depend on which
 * other cases were selected or in which order they were processed.
 */
import { createHash } from 'node:crypto';

/** A seeded stream of draws. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
}

/** mulberry32: small, fast and good enough for choosing positions and error texts (floats in [0, 1)). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The stream for `seed` and the keys naming what it is drawn for. */
export function randomFor(seed: number | string, ...keys: string[]): Random {
  const digest = createHash('sha256')
    .update(JSON.stringify([String(seed), ...keys]))
    .digest();
  const next = mulberry32(digest.readUInt32LE(0));
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    shuffle: (items) => {
      const copy = [...items];
      for (let index = copy.length - 1; index > 0; index--) {
        const other = Math.floor(next() * (index + 1));
        [copy[index], copy[other]] = [copy[other]!, copy[index]!];
      }
      return copy;
    },
  };
  return random;
}

/**
 * The first `count` items by a hash of (seed, purpose, key), returned in their input order: a
 * seeded sample where whether one item is chosen depends only on its own rank, not on the order.
 */
export function sampleByHash<T>(
  items: readonly T[],
  count: number,
  seed: number | string,
  purpose: string,
  keyOf: (item: T) => string,
): T[] {
  if (items.length <= count) return [...items];
  const rank = (item: T) =>
    createHash('sha256')
      .update(JSON.stringify([String(seed), purpose, keyOf(item)]))
      .digest('hex');
  const kept = new Set(
    [...items]
      .map((item) => ({ item, rank: rank(item) }))
      .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
      .slice(0, count)
      .map(({ item }) => item),
  );
  return items.filter((item) => kept.has(item));
}
