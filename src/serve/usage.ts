/**
 * What `apb serve` has spent, by role: every call of a provider is counted under its request's role (`agent` for
 * forwarded requests, `planner` for drafts and revisions, `critic` for critiques) — calls, cache hits, tokens and
 * cost by data/prices.json — so `/apb/stats` and the closing line say what a benchmark run through the endpoint
 * cost, beside the `--max-cost` budget.
 */
import { addUsage, emptyUsageTotals, type UsageTotals } from '../pipeline/manifest.js';
import type { Provider } from '../providers/provider.js';

/** Prices a call: `(model, usage) → USD`, null when the model has no price. */
export type CallPrice = (
  model: string,
  usage: { inputTokens: number; outputTokens: number } | null,
) => number | null;

/** Usage by role over the calls of the providers it wraps. */
export class RoleUsage {
  private readonly roles = new Map<string, UsageTotals>();
  /** Roles with a call of a model that has no price: their cost is unknown. */
  private readonly unpriced = new Set<string>();

  constructor(private readonly priceOf: CallPrice) {}

  /** The provider, counting each call it answers (a failed call is not billed, so not counted). */
  wrap(provider: Provider): Provider {
    return {
      id: provider.id,
      generate: async (request, signal) => {
        const result = await provider.generate(request, signal);
        const totals = this.roles.get(request.role) ?? { ...emptyUsageTotals(), cost_usd: 0 };
        const cost = result.cached ? 0 : this.priceOf(provider.id, result.usage);
        if (cost === null) this.unpriced.add(request.role);
        addUsage(totals, result.usage, result.cached, cost);
        this.roles.set(request.role, totals);
        return result;
      },
    };
  }

  /** Every role's totals so far. */
  totals(): Record<string, UsageTotals> {
    return Object.fromEntries(
      [...this.roles].map(([role, totals]) => [
        role,
        { ...totals, cost_usd: this.unpriced.has(role) ? null : totals.cost_usd },
      ]),
    );
  }
}
