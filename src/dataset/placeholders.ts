/** Placeholders: argument values that stand for data an earlier step will produce. */

// `<customer_id returned by step 1>`, `{{step1.output}}`, `${order_id}`, or prose naming an earlier step.
const WHOLE_ANGLE = /^\s*<[^<>]+>\s*$/;
const TEMPLATE = /\{\{[^{}]*\}\}|\$\{[^{}]*\}/;
const FROM_STEP =
  /\b(?:from|of|returned by|output of|result of|obtained in|given by)\s+(?:the\s+)?(?:previous|earlier|prior|last|step|action|call)\b/i;

/** Whether a value is a data-flow placeholder rather than a literal (only strings can be). */
export function isPlaceholder(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  return WHOLE_ANGLE.test(value) || TEMPLATE.test(value) || FROM_STEP.test(value);
}

/**
 * Step numbers a value cites (`step 2`, `action 2`, `#2`, `step2.output`), searched through nested values.
 * A bare `#N` cites a step only up to two digits: `#9502126` is an order id (tau2-bench's own references
 * hold such ids), and no plan has a hundred steps.
 */
export function citedSteps(value: unknown): number[] {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  const cited = new Set<number>();
  for (const match of text.matchAll(/\b(?:step|action|call)[\s_#-]*(\d+)/gi))
    cited.add(Number(match[1]));
  for (const match of text.matchAll(/(?<![\w&])#(\d{1,2})(?!\d)\b/g)) cited.add(Number(match[1]));
  return [...cited].sort((a, b) => a - b);
}
