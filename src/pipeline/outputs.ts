/** What a run directory gets after (and independent of) a run: scores.json, report.md, report.html. */
import type { Limits } from '../limits.js';
import { writeFileAtomic } from '../atomic-write.js';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { InputError, type InputIssue } from '../errors.js';
import { readJsonLines } from './results-store.js';
import { readManifest, writeManifest } from './manifest.js';
import { ScoresAccumulator } from './scores.js';

/** Every line of a run's judgements.jsonl; an unreadable line is an input error naming file and line. */
export async function readJudgementLines(
  dir: string,
  limits?: Limits,
): Promise<Record<string, unknown>[]> {
  const file = path.join(dir, 'judgements.jsonl');
  const issues: InputIssue[] = [];
  const lines: Record<string, unknown>[] = [];
  const onBadLine = (line: number, message: string) =>
    issues.push({ file, line, field: '(line)', message });
  for await (const { value } of readJsonLines(file, onBadLine, limits)) lines.push(value);
  if (issues.length > 0) throw new InputError(issues);
  return lines;
}

/**
 * Moves a scores.json that apb did not write (the official harness's: no `tables`) out of the way
 * before apb writes its own, as `scores.official.json` (or `scores.official-2.json`, … when taken);
 * returns the backup's name, or null when there was nothing foreign to keep.
 */
export function keepForeignScores(dir: string): string | null {
  const file = path.join(dir, 'scores.json');
  if (!existsSync(file)) return null;
  let ours = false;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    ours =
      typeof value === 'object' &&
      value !== null &&
      typeof (value as Record<string, unknown>).tables === 'object';
  } catch {
    // Unreadable: not ours either; keep it.
  }
  if (ours) return null;
  let name = 'scores.official.json';
  for (let index = 2; existsSync(path.join(dir, name)); index += 1)
    name = `scores.official-${index}.json`;
  renameSync(file, path.join(dir, name));
  return name;
}

/**
 * Recomputes scores.json from judgements.jsonl (the official groups, plus every table this run
 * fills), streaming the file: only each line's row and slim copy are kept, never the lines.
 */
export async function writeScores(
  dir: string,
  onWarning: (message: string) => void = () => {},
  limits?: Limits,
): Promise<void> {
  const file = path.join(dir, 'judgements.jsonl');
  const issues: InputIssue[] = [];
  const accumulator = new ScoresAccumulator(
    (index, message) =>
      onWarning(`judgements.jsonl line ${index + 1} is only in the official groups: ${message}`),
    limits?.jsonDepth,
  );
  const onBadLine = (line: number, message: string) =>
    issues.push({ file, line, field: '(line)', message });
  for await (const { value } of readJsonLines(file, onBadLine, limits)) accumulator.add(value);
  if (issues.length > 0) throw new InputError(issues);
  const scores = accumulator.result();
  writeFileAtomic(path.join(dir, 'scores.json'), `${JSON.stringify(scores, null, 2)}\n`);
}

/**
 * Writes every derived file of a run directory: scores here, the reports by the caller's writer
 * (`report/write-reports.ts`; the pipeline never imports the report). When that fails (a damaged line, a full disk) a
 * manifest that says `complete` is set to `failed`: a directory never claims to be complete
 * beside stale scores and reports. A rerun into it writes them again and says `complete`. The run
 * files are read under `limits` (default `DEFAULT_LIMITS`); the report writer is given its own.
 */
export async function writeRunOutputs<R>(
  dir: string,
  writeReports: (dir: string) => Promise<R>,
  onWarning?: (message: string) => void,
  limits?: Limits,
): Promise<R> {
  try {
    await writeScores(dir, onWarning, limits);
    return await writeReports(dir);
  } catch (error) {
    let manifest: ReturnType<typeof readManifest> = null;
    try {
      manifest = readManifest(dir, limits);
    } catch {
      // an unreadable manifest cannot claim anything either
    }
    if (manifest?.status === 'complete' || manifest?.status === 'stopped-budget')
      writeManifest(dir, { ...manifest, status: 'failed', updated_at: new Date().toISOString() });
    throw error;
  }
}
