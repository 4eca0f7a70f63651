/**
 * Resume state of a run directory: which (prediction, judge) pairs are finished, and which saved
 * predictions still await a judgement (they are judged without calling the planner again).
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../atomic-write.js';
import { judgementKey } from './fingerprint.js';
import type { JudgementLine, PredictionLine } from './records.js';
import type { JsonlStore, LinePlace } from '../rundir/jsonl-store.js';
import { resumeKeys, type RunSession } from '../rundir/session.js';
import { costOfLine } from './budget.js';
import { RunTally } from './recount.js';
import { openResultStores, type ResultStores } from './run-stores.js';
import type { Manifest } from './manifest.js';

/** Saved predictions awaiting a judgement, by fingerprint. */
export interface PendingPredictions {
  get(fingerprint: string): PredictionLine | undefined;
  has(fingerprint: string): boolean;
  readonly size: number;
  /** Releases what reading them needs (a file descriptor); called when the run ends. */
  close?(): void;
}

export interface ResumeState {
  /** `judgementKey(fingerprint, judge)` of every finished pair. */
  finished: Set<string>;
  /** Saved predictions that have no judgement yet, by fingerprint. */
  pending: PendingPredictions;
}

/**
 * Pending predictions kept as their place in `predictions.jsonl` and read again when judged:
 * resuming a run whose judging was cut short holds fingerprints and offsets, not lines.
 */
class StoredPredictions implements PendingPredictions {
  readonly places = new Map<string, LinePlace>();

  constructor(private readonly store: JsonlStore<PredictionLine>) {}

  get size(): number {
    return this.places.size;
  }

  has(fingerprint: string): boolean {
    return this.places.has(fingerprint);
  }

  get(fingerprint: string): PredictionLine | undefined {
    const place = this.places.get(fingerprint);
    // Appends never move a line, so the place stays right while the run writes.
    return place ? this.store.readAt(place) : undefined;
  }
}

/** Reads what a directory already holds. Lines of other judges do not count as finished for this one. */
export async function loadResumeState(stores: ResultStores, judgeId: string): Promise<ResumeState> {
  const finished = await resumeKeys(stores.judgements, (line) => {
    const fingerprint = line.apb?.prediction?.fingerprint;
    return fingerprint && line.judge_model === judgeId ? judgementKey(fingerprint, judgeId) : null;
  });
  const pending = new StoredPredictions(stores.predictions);
  // The store's strict read (a damaged line is refused, FILE:LINE), keeping places, not lines.
  for await (const { value, offset, bytes } of stores.predictions.places()) {
    const fingerprint = value.apb?.fingerprint;
    if (fingerprint && !finished.has(judgementKey(fingerprint, judgeId)))
      pending.places.set(fingerprint, { offset, bytes });
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
        status =
          file === predictionsPath
            ? line.apb?.status
            : (line.apb as JudgementLine['apb'] | undefined)?.prediction?.status;
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

/** What a reopened evaluation directory holds: its stores, what is done, and their tally. */
export interface ReopenedResults {
  stores: ResultStores;
  resume: ResumeState;
  tally: RunTally;
}

/**
 * Opens both stores, warns of torn lines the open cut, reads back what an earlier attempt wrote
 * for `judgeId`, and starts a tally that follows every later append (no re-read at the end).
 * `run` and `refine` resume the same way through this one step.
 */
export async function reopenResults(
  session: RunSession<Manifest>,
  judgeId: string,
  onWarning?: (message: string) => void,
): Promise<ReopenedResults> {
  const stores = openResultStores(session);
  if (session.tornLinesDropped() > 0)
    onWarning?.(
      `dropped ${session.tornLinesDropped()} half-written line(s) left by an earlier crash`,
    );
  const resume = await loadResumeState(stores, judgeId);
  const tally = new RunTally(costOfLine);
  await session.follow(stores.predictions, (line) => tally.addPrediction(line));
  await session.follow(stores.judgements, (line) => tally.addJudgement(line));
  return { stores, resume, tally };
}
