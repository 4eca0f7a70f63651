/**
 * The reference points of a first run: `baseline:oracle` (the reference replayed: the ceiling the
 * judge allows) and `baseline:refuse` (what refusing everything buys) on the same cases as the
 * run, judged by the same deterministic judge, in memory and without a call. A first result of
 * zeros is readable only beside what 100 % and a blanket refusal look like (issue 26).
 */
import type { Limits } from '../limits.js';
import path from 'node:path';
import { BASELINES } from '../baselines/index.js';
import { readAllCases } from '../dataset/read-cases.js';
import type { Case } from '../dataset/case.js';
import type { Judge } from '../judge/judge.js';
import type { ResultRow } from '../metrics/result-row.js';
import type { PromptOptions } from '../settings/prompt.js';
import { judgePrediction, plannerPromptOf, predict } from './evaluate-case.js';
import { baselinePlanner } from './planner.js';
import { readResultRows, rowFromJudgementLine } from './result-rows.js';

/** The baselines set beside a default run, in the order they are shown. */
export const REFERENCE_BASELINES = ['oracle', 'refuse'] as const;

/** One reference point: the baseline's spec and its rows over the run's cases. */
export interface ReferencePoint {
  model: `baseline:${(typeof REFERENCE_BASELINES)[number]}`;
  rows: ResultRow[];
}

/**
 * Each reference baseline answered and judged on every case (one repeat). Only deterministic
 * judges make sense here: an LLM judge would turn "without a call" into a bill.
 */
export async function referencePoints(
  cases: readonly Case[],
  judge: Judge,
  promptOptions: PromptOptions,
): Promise<ReferencePoint[]> {
  const points: ReferencePoint[] = [];
  for (const name of REFERENCE_BASELINES) {
    const planner = baselinePlanner(name, BASELINES[name]);
    const rows: ResultRow[] = [];
    for (const caseItem of cases) {
      const prompt = plannerPromptOf(caseItem, promptOptions);
      const context = { planner, judge, promptOptions };
      const prediction = await predict(caseItem, 0, 'reference-point', prompt, context);
      const line = await judgePrediction(caseItem, prediction, prompt, context);
      rows.push(rowFromJudgementLine(line as unknown as Record<string, unknown>));
    }
    points.push({ model: planner.id as ReferencePoint['model'], rows });
  }
  return points;
}

/**
 * The reference points of a finished run directory: the cases its judgements name (split, id),
 * read again from its dataset (both under `limits`), answered by each reference baseline and judged by `judge`.
 */
export async function referencePointsOfRun(
  dir: string,
  datasetDir: string,
  judge: Judge,
  promptOptions: PromptOptions,
  limits?: Limits,
): Promise<ReferencePoint[]> {
  const { rows } = await readResultRows(path.join(dir, 'judgements.jsonl'), { limits });
  const wanted = new Set(rows.map((row) => `${row.facets.split}\u0000${row.id}`));
  const splits = [...new Set(rows.map((row) => row.facets.split))];
  const { cases } = await readAllCases(datasetDir, {
    splits,
    skipInvalid: true,
    ...(limits ? { limits } : {}),
  });
  const selected = cases.filter((item) => wanted.has(`${item.split}\u0000${item.id}`));
  return referencePoints(selected, judge, promptOptions);
}
