/** The released layout's split files: `DIR/data/{split}.jsonl`. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { didYouMean } from '../did-you-mean.js';
import { SPLITS, type SplitName } from './case.js';

/** The split files present in a dataset, in the canonical split order. */
export function listSplitFiles(dir: string): { split: SplitName; file: string }[] {
  const dataDir = path.join(dir, 'data');
  const present = new Set(readdirSync(dataDir));
  return SPLITS.filter((split) => present.has(`${split}.jsonl`)).map((split) => ({
    split,
    file: path.join(dataDir, `${split}.jsonl`),
  }));
}

/**
 * Files under `DIR/data/` that are not a split file, with the split each most resembles: a
 * misnamed `holistic_planing.jsonl` would otherwise be skipped without a word.
 */
export function unknownDataFiles(dir: string): { file: string; suggestion: string }[] {
  const dataDir = path.join(dir, 'data');
  const known = new Set(SPLITS.map((split) => `${split}.jsonl`));
  if (!existsSync(dataDir)) return []; // the reader reports a missing data/ in its own words
  return readdirSync(dataDir)
    .filter((name) => !name.startsWith('.') && !known.has(name))
    .sort()
    .map((name) => ({ file: path.join(dataDir, name), suggestion: didYouMean(name, [...known]) }));
}

/** One warning line per unknown file under `data/`, as `FILE:0: file: warning: …`. */
export function unknownDataFileWarnings(dir: string): string[] {
  return unknownDataFiles(dir).map(
    ({ file, suggestion }) =>
      `${file}:0: file: warning: not a split file, so it is not read${suggestion}`,
  );
}
