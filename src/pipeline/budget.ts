/**
 * Cost and budget: what a line's calls cost (by its model spec and `data/prices.json`), and the
 * `--max-cost` gate that stops new calls once spent + in-flight estimates would pass the budget.
 * See docs/engine.md, "Cost and budget".
 */
import { ApbError, UsageError } from '../errors.js';
import { costOf, findPrice, loadPrices, type Price } from '../providers/cost.js';
import { estimateRequestTokens } from '../providers/estimate.js';
import type { CallGate, CallTicket } from '../providers/gate.js';
import { isCodeSpec } from '../providers/code/spec.js';
import { parseModelSpec } from '../providers/model-spec.js';
import type { ProviderRequest, Usage } from '../providers/provider.js';
import type { CostOf } from './recount.js';

/** Output tokens assumed for a call that sets no output cap (estimates only; billing uses reported usage). */
export const DEFAULT_OUTPUT_TOKENS: Readonly<Record<string, number>> = {
  planner: 1024,
  judge: 512,
  critic: 1024,
  agent: 512,
  user: 256,
};

/** The output tokens assumed for a role without a cap of its own (an unknown role is estimated like a planner). */
export function defaultOutputTokens(role: string): number {
  return DEFAULT_OUTPUT_TOKENS[role] ?? 1024;
}

/** A model spec's price: `free` for baselines and the rules judge, null when `data/prices.json` has no row for it. */
export function priceOfSpec(model: string): Price | 'free' | null {
  if (model === 'rules' || model.startsWith('baseline:')) return 'free';
  try {
    return findPrice(parseModelSpec(model));
  } catch {
    return null;
  }
}

/** The `as_of` date of the price table costs are computed with. */
export function pricesAsOf(): string {
  return loadPrices().as_of;
}

/**
 * The `costOf` hook of `recountRun`: baselines and `rules` cost 0; a model without a price costs null
 * (unknown); a call whose endpoint reported no usage adds 0 (a failed call is not billed).
 */
export const costOfLine: CostOf = (_role, model, usage, batch = false) =>
  costOfCall(model, usage, batch);

/** What one call of `model` with `usage` cost, by the same rules as `costOfLine` (any role; `batch` at batch prices). */
export function costOfCall(model: string, usage: Usage | null, batch = false): number | null {
  const price = priceOfSpec(model);
  if (price === 'free') return 0;
  if (!price) return null;
  return usage ? costOf(usage, price, { batch }) : 0;
}

/** USD for an estimated call: input tokens at the input rate, output tokens at the output rate. */
export function estimatedCost(price: Price, inputTokens: number, outputTokens: number): number {
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}

/** The estimate the gate reserves for a request: its real prompt's tokens, and its output cap or the role's default. */
export function estimateCallCost(request: ProviderRequest, price: Price): number {
  const { inputTokens, maxOutputTokens } = estimateRequestTokens(request);
  return estimatedCost(price, inputTokens, maxOutputTokens || defaultOutputTokens(request.role));
}

/** Thrown by the gate when a call would pass the budget; the run stops starting calls and ends `stopped-budget`. */
export class BudgetExceededError extends ApbError {
  constructor(message: string) {
    super('budget', message);
  }
}

/** What the budget did, for the manifest and the closing message. */
export interface BudgetSummary {
  max_cost_usd: number;
  /** Reported cost of the calls this invocation made (estimated where an endpoint reported no usage). */
  spent_usd: number;
  /** Calls refused by the gate. */
  refused_calls: number;
  stopped: boolean;
  /** Calls whose reported usage was impossible or implausible, counted at apb's estimate (or the report, if higher). */
  implausible_usage_calls?: number;
}

/** The `--max-cost` budget of one invocation: spent + reserved (in-flight estimates) never passes `maxCostUsd`. */
export class Budget {
  private spent = 0;
  private reserved = 0;
  private refused = 0;
  private implausible = 0;
  private stoppedAt = false;

  constructor(readonly maxCostUsd: number) {
    if (!(maxCostUsd > 0))
      throw new UsageError(`--max-cost must be a positive number of USD (got ${maxCostUsd})`);
  }

  /** True once a call has been refused: nothing new starts after that. */
  get exhausted(): boolean {
    return this.stoppedAt;
  }

  /** The gate for one model spec's stack; a spec without a known price is a usage error, raised before any call. */
  gateFor(model: string): CallGate {
    if (isCodeSpec(model)) return { admit: () => this.admitReported() };
    const price = priceOfSpec(model);
    if (price === 'free') return { admit: () => ({ settle: () => {} }) };
    if (!price)
      throw new UsageError(
        `--max-cost needs a price for ${model}, and data/prices.json has none: add a row for it there, or run without --max-cost`,
      );
    return { admit: (request) => this.admit(request, price) };
  }

  summary(): BudgetSummary {
    return {
      max_cost_usd: this.maxCostUsd,
      spent_usd: this.spent,
      refused_calls: this.refused,
      stopped: this.stoppedAt,
      ...(this.implausible > 0 ? { implausible_usage_calls: this.implausible } : {}),
    };
  }

  private admit(request: ProviderRequest, price: Price): CallTicket {
    const estimate = estimateCallCost(request, price);
    if (this.stoppedAt || this.spent + this.reserved + estimate > this.maxCostUsd) {
      this.stoppedAt = true;
      this.refused += 1;
      throw new BudgetExceededError(
        `--max-cost ${this.maxCostUsd} USD reached: spent ${this.spent.toFixed(4)} USD, ${this.reserved.toFixed(4)} USD in flight, next call estimated at ${estimate.toFixed(4)} USD`,
      );
    }
    this.reserved += estimate;
    let settled = false;
    return {
      settle: (result) => {
        if (settled) return;
        settled = true;
        this.reserved -= estimate;
        if (result?.usageImplausible) this.implausible += 1;
        this.spent += result ? this.actualCost(result, price, estimate) : 0;
      },
    };
  }

  /** A planner or agent as code: nothing to estimate, so it is admitted while budget remains and billed what it reports. */
  private admitReported(): CallTicket {
    if (this.stoppedAt || this.spent + this.reserved >= this.maxCostUsd) {
      this.stoppedAt = true;
      this.refused += 1;
      throw new BudgetExceededError(
        `--max-cost ${this.maxCostUsd} USD reached: spent ${this.spent.toFixed(4)} USD (as the planners reported it)`,
      );
    }
    let settled = false;
    return {
      settle: (result) => {
        if (settled) return;
        settled = true;
        this.spent += result?.costUsd ?? 0;
      },
    };
  }

  private actualCost(
    result: { usage: Usage | null; usageImplausible?: boolean },
    price: Price,
    estimate: number,
  ): number {
    const { usage } = result;
    const cost = usage ? (costOf(usage, price) ?? estimate) : estimate;
    // Never let a reported number make spending go down or vanish: the budget must always hold.
    if (!Number.isFinite(cost) || cost < 0) return estimate;
    // Numbers the endpoint made up (clamped from negative, absurd): apb's estimate, unless they say more.
    return result.usageImplausible ? Math.max(cost, estimate) : cost;
  }
}
