/** The released layout's split files: `DIR/data/{split}.jsonl`. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
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
