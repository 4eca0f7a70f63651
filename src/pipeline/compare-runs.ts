/** `apb compare RUN_A RUN_B`: the two run directories' judgements read and compared case by case. */
import type { Limits } from '../limits.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { compareRuns, type RunComparison } from '../metrics/run-comparison.js';
import { readResultRows } from './result-rows.js';

async function rowsOf(dir: string, limits: Limits | undefined) {
  const file = path.join(dir, 'judgements.jsonl');
  if (!existsSync(file)) throw new UsageError(`${dir} has no judgements.jsonl: not a judged run`);
  const { rows, issues } = await readResultRows(file, { limits });
  if (issues.length > 0) throw new InputError(issues);
  // A refined run is compared as its refined answers; initial answers live in their source run.
  return rows;
}

/** Reads both runs (every line readable under `limits`) and compares them on their shared cases. */
export async function compareRunDirs(
  dirA: string,
  dirB: string,
  limits?: Limits,
): Promise<RunComparison> {
  const [a, b] = await Promise.all([rowsOf(dirA, limits), rowsOf(dirB, limits)]);
  return compareRuns({ label: dirA, rows: a }, { label: dirB, rows: b });
}
