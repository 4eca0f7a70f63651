/** Recomputes a manifest's counts and usage totals from the run files, which are the source of truth. */
import path from 'node:path';
import type { Usage } from '../providers/provider.js';
import { addUsage, emptyUsageTotals, type Manifest } from './manifest.js';
import type { JudgementLine, PredictionLine } from './records.js';
import { readJsonLines } from './results-store.js';

/** Prices a call; null when the model has no known price. */
export type CostOf = (role: 'planner' | 'judge', model: string, usage: Usage | null) => number | null;

export interface RecountOptions {
  total: number;
  invalidRecords: number;
  alreadyDone: number;
  status: Manifest['status'];
  now: Date;
  costOf?: CostOf;
}

export async function recountRun(dir: string, manifest: Manifest, options: RecountOptions): Promise<Manifest> {
  const predictions = { ok: 0, error: 0, parse_error: 0 };
  const judgements = { ok: 0, judge_error: 0 };
  const planner = emptyUsageTotals();
  const judge = emptyUsageTotals();
  for await (const { value } of readJsonLines(path.join(dir, 'predictions.jsonl'))) {
    const line = value as PredictionLine;
    if (!line.apb) continue;
    predictions[line.apb.status] += 1;
    if (line.apb.status !== 'error') addUsage(planner, line.apb.usage, line.apb.cached, options.costOf?.('planner', line.tested_model, line.apb.usage) ?? null);
  }
  for await (const { value } of readJsonLines(path.join(dir, 'judgements.jsonl'))) {
    const line = value as JudgementLine;
    if (!line.apb) continue;
    judgements[line.apb.status] += 1;
    if (line.apb.judge_kind === 'llm') addUsage(judge, line.apb.usage, line.apb.cached, options.costOf?.('judge', line.judge_model, line.apb.usage) ?? null);
  }
  return {
    ...manifest,
    status: options.status,
    updated_at: options.now.toISOString(),
    finished_at: options.status === 'running' ? null : options.now.toISOString(),
    counts: { cases: options.total, invalid_records: options.invalidRecords, resumed: options.alreadyDone, predictions, judgements },
    usage: { planner, judge },
  };
}
