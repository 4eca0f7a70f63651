/**
 * Resume state of a run directory: which (prediction, judge) pairs are finished, and which saved
 * predictions still await a judgement (they are judged without calling the planner again).
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../atomic-write.js';
import { judgementKey } from './fingerprint.js';
import type { JudgementLine, PredictionLine } from './records.js';
import type { ResultsStore } from './results-store.js';

export interface ResumeState {
  /** `judgementKey(fingerprint, judge)` of every finished pair. */
  finished: Set<string>;
  /** Saved predictions that have no judgement yet, by fingerprint. */
  pending: Map<string, PredictionLine>;
}

/** Reads what a directory already holds. Lines of other judges do not count as finished for this one. */
export async function loadResumeState(store: ResultsStore, judgeId: string): Promise<ResumeState> {
  const finished = new Set<string>();
  for await (const line of store.readJudgements()) {
    const fingerprint = line.apb?.prediction?.fingerprint;
    if (fingerprint && line.judge_model === judgeId) finished.add(judgementKey(fingerprint, judgeId));
  }
  const pending = new Map<string, PredictionLine>();
  for await (const line of store.readPredictions()) {
    const fingerprint = line.apb?.fingerprint;
    if (fingerprint && !finished.has(judgementKey(fingerprint, judgeId))) pending.set(fingerprint, line);
  }
  return { finished, pending };
}

/**
 * For `--retry-errors`: rewrites both files without the lines of planner `error` outcomes, so the
 * retried cases run again and the files keep one line per case. Done before the run starts.
 */
export function dropErrorOutcomes(predictionsPath: string, judgementsPath: string): number {
  let dropped = 0;
  for (const file of [predictionsPath, judgementsPath]) {
    if (!existsSync(file)) continue;
    const kept: string[] = [];
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      if (!text.trim()) continue;
      let status: string | undefined;
      try {
        const line = JSON.parse(text) as Partial<PredictionLine & JudgementLine>;
        status = file === predictionsPath ? line.apb?.status : (line.apb as JudgementLine['apb'] | undefined)?.prediction?.status;
      } catch {
        status = undefined;
      }
      if (status === 'error') dropped += 1;
      else kept.push(text);
    }
    writeFileAtomic(file, kept.map((line) => `${line}\n`).join(''));
  }
  return dropped;
}
