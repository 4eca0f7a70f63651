/**
 * Token usage as the endpoint reported it is untrusted input: a negative count once gave
 * `spent_usd` −5,249.99 and a `--max-cost 0.10` that never stopped the run. Every count is clamped
 * to a finite number ≥ 0 (cached ≤ input), and a value no real call reaches is kept but flagged in
 * the call's warnings, so the run record says which numbers the endpoint made up. Such a call is
 * `implausible`: a `prompt_tokens` of −100,000,000 clamped to 0 once let a `--max-cost 0.05` run
 * make all its calls, so the budget counts apb's own estimate for it (pipeline/budget.ts).
 */
import type { Usage } from './provider.js';

/** Per-call counts past which a reported value is flagged as implausible (still counted: budgets stay conservative). */
export const IMPLAUSIBLE_TOKENS = { input: 10_000_000, output: 1_000_000 } as const;

/** The usage with every count clamped, and one warning per value that was clamped or looks impossible. */
export function saneUsage(usage: Usage | null): {
  usage: Usage | null;
  warnings: string[];
  /** Some count was clamped or flagged: the budget must not trust these numbers (it counts its estimate). */
  implausible: boolean;
} {
  if (!usage) return { usage, warnings: [], implausible: false };
  const warnings: string[] = [];
  const clamp = (name: string, value: number | undefined): number | undefined => {
    if (value === undefined) return undefined;
    if (Number.isFinite(value) && value >= 0) return value;
    warnings.push(`the endpoint reported ${name} = ${value}; counted as 0`);
    return 0;
  };
  const inputTokens = clamp('input tokens', usage.inputTokens) ?? 0;
  const outputTokens = clamp('output tokens', usage.outputTokens) ?? 0;
  const sane: Usage = { inputTokens, outputTokens };
  const reasoning = clamp('reasoning tokens', usage.reasoningTokens);
  if (reasoning !== undefined) sane.reasoningTokens = reasoning;
  let cached = clamp('cached input tokens', usage.cachedInputTokens);
  if (cached !== undefined && cached > inputTokens) {
    warnings.push(
      `the endpoint reported ${cached} cached input tokens of ${inputTokens}; counted as ${inputTokens}`,
    );
    cached = inputTokens;
  }
  if (cached !== undefined) sane.cachedInputTokens = cached;
  if (inputTokens > IMPLAUSIBLE_TOKENS.input)
    warnings.push(`implausible usage: ${inputTokens} input tokens for one call (kept as reported)`);
  if (outputTokens > IMPLAUSIBLE_TOKENS.output)
    warnings.push(
      `implausible usage: ${outputTokens} output tokens for one call (kept as reported)`,
    );
  if (reasoning !== undefined && reasoning > outputTokens)
    warnings.push(
      `implausible usage: ${reasoning} reasoning tokens of ${outputTokens} output tokens (kept as reported)`,
    );
  return { usage: sane, warnings, implausible: warnings.length > 0 };
}
