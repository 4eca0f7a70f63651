/** Recomputes a manifest's counts and usage totals from the run files, which are the source of truth. */
import type { Limits } from '../limits.js';
import path from 'node:path';
import type { Usage } from '../providers/provider.js';
import { addUsage, emptyUsageTotals, type Manifest, type UsageTotals } from './manifest.js';
import type { JudgementLine, LineRefinement, PredictionLine } from './records.js';
import { readJsonLines } from './results-store.js';
import { failureReasonOf } from './result-rows.js';

/** Prices a call (at batch rates when `batch`); null when the model has no known price. */
export type CostOf = (
  role: 'planner' | 'judge' | 'critic',
  model: string,
  usage: Usage | null,
  batch?: boolean,
) => number | null;

export interface RecountOptions {
  /** The caps the run files are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
  total: number;
  invalidRecords: number;
  alreadyDone: number;
  status: Manifest['status'];
  now: Date;
  /** Prices each call; without it every `cost_usd` is null. */
  costOf?: CostOf;
  /** `as_of` of the price table `costOf` uses, recorded as `usage.prices_as_of`. */
  pricesAsOf?: string;
}

/**
 * Per-role totals: a cache hit counts as a call but adds no tokens or cost; `cost_usd` is the sum
 * over the other calls, and null as soon as one of them has no known price.
 */
class RoleTally {
  readonly totals: UsageTotals = emptyUsageTotals();
  private unknownCost = false;
  private cost = 0;

  constructor(private readonly costOf: CostOf | undefined) {}

  add(
    role: 'planner' | 'judge' | 'critic',
    model: string,
    usage: Usage | null,
    cached: boolean,
    batch = false,
  ): void {
    const cost = cached ? 0 : (this.costOf?.(role, model, usage, batch) ?? null);
    addUsage(this.totals, usage, cached, null);
    if (cost === null) this.unknownCost = true;
    else this.cost += cost;
  }

  result(): UsageTotals {
    return { ...this.totals, cost_usd: this.unknownCost || !this.costOf ? null : this.cost };
  }
}

/** Counts and usage of a run directory's lines, fed line by line (the files, then every line a run appends). */
export class RunTally {
  private readonly predictions = { ok: 0, error: 0, parse_error: 0 };
  private readonly judgements = { ok: 0, judge_error: 0 };
  private readonly failureReasons = new Map<string, number>();
  private readonly planner: RoleTally;
  private readonly judge: RoleTally;
  private readonly critic: RoleTally;
  private refined = false;

  constructor(costOf?: CostOf) {
    this.planner = new RoleTally(costOf);
    this.judge = new RoleTally(costOf);
    this.critic = new RoleTally(costOf);
  }

  addPrediction(line: PredictionLine): void {
    if (!line.apb) return;
    this.predictions[line.apb.status] += 1;
    if (line.apb.refinement) this.addRefinement(line.tested_model, line.apb.refinement);
    else if (line.apb.status !== 'error')
      this.planner.add(
        'planner',
        line.tested_model,
        line.apb.usage,
        line.apb.cached,
        Boolean(line.apb.batch_id),
      );
  }

  /** A refined line: every critique (critic role), every revision (planner role) and a judge call on the initial answer made by apb refine. */
  private addRefinement(model: string, refinement: LineRefinement): void {
    this.refined = true;
    for (const critique of refinement.critiques ?? [])
      if (!critique.error)
        this.critic.add('critic', refinement.critic, critique.usage, critique.cached);
    for (const revision of refinement.revisions ?? [])
      if (!revision.error) this.planner.add('planner', model, revision.usage, revision.cached);
    const initial = refinement.initial;
    if (initial?.judged_in === 'refine' && initial.judge_usage !== undefined)
      this.judge.add(
        'judge',
        initial.judge,
        initial.judge_usage ?? null,
        initial.judge_cached ?? false,
      );
  }

  addJudgement(line: JudgementLine): void {
    if (!line.apb) return;
    this.judgements[line.apb.status] += 1;
    const prediction = line.apb.prediction as unknown as Record<string, unknown> | undefined;
    const reason = failureReasonOf(
      (prediction?.status as 'ok' | 'error' | 'parse_error' | undefined) ?? 'ok',
      line.apb.status,
      prediction ?? null,
      line.apb as unknown as Record<string, unknown>,
    );
    if (reason) this.failureReasons.set(reason.key, (this.failureReasons.get(reason.key) ?? 0) + 1);
    if (line.apb.judge_kind === 'llm')
      this.judge.add(
        'judge',
        line.judge_model,
        line.apb.usage,
        line.apb.cached,
        Boolean(line.apb.batch_ids?.length),
      );
  }

  /** `manifest` with these counts and usage totals and the given status. */
  manifest(manifest: Manifest, options: Omit<RecountOptions, 'costOf'>): Manifest {
    return {
      ...manifest,
      status: options.status,
      updated_at: options.now.toISOString(),
      finished_at: options.status === 'running' ? null : options.now.toISOString(),
      counts: {
        cases: options.total,
        invalid_records: options.invalidRecords,
        resumed: options.alreadyDone,
        predictions: { ...this.predictions },
        judgements: { ...this.judgements },
        failure_reasons: Object.fromEntries(
          [...this.failureReasons].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
        ),
      },
      usage: {
        planner: this.planner.result(),
        judge: this.judge.result(),
        ...(this.refined ? { critic: this.critic.result() } : {}),
        prices_as_of: options.pricesAsOf ?? manifest.usage.prices_as_of ?? null,
      },
    };
  }
}

/** Tallies the lines a run directory holds now. */
export async function tallyRun(dir: string, costOf?: CostOf, limits?: Limits): Promise<RunTally> {
  const tally = new RunTally(costOf);
  const lines = (name: string) => readJsonLines(path.join(dir, name), undefined, limits);
  for await (const { value } of lines('predictions.jsonl'))
    tally.addPrediction(value as PredictionLine);
  for await (const { value } of lines('judgements.jsonl'))
    tally.addJudgement(value as JudgementLine);
  return tally;
}

/** Recomputes a manifest's counts and usage from the run files. */
export async function recountRun(
  dir: string,
  manifest: Manifest,
  options: RecountOptions,
): Promise<Manifest> {
  return (await tallyRun(dir, options.costOf, options.limits)).manifest(manifest, options);
}
