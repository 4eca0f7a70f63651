/** Prices from `data/prices.json` and the cost of a Usage; an unknown model costs null, never 0. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { PROVIDERS, type ModelSpec, type ProviderId } from './model-spec.js';
import type { Usage } from './provider.js';
import { saneUsage } from './usage-sanity.js';

const priceSchema = z
  .object({
    provider: z.enum(Object.keys(PROVIDERS) as [ProviderId, ...ProviderId[]]),
    model: z.string(),
    input: z.number().min(0),
    output: z.number().min(0),
    cached_input: z.number().min(0).optional(),
    /** Through the vendor's batch API (`--batch`); a row without them has no known batch price. */
    batch_input: z.number().min(0).optional(),
    batch_output: z.number().min(0).optional(),
    confidence: z.enum(['high', 'unsure']),
  })
  .strict();
const priceTableSchema = z.object({
  as_of: z.string(),
  currency: z.literal('USD'),
  unit: z.literal('per million tokens'),
  note: z.string(),
  models: z.array(priceSchema),
});

/** One price row: USD per million input, output and cached-input tokens. */
export type Price = z.infer<typeof priceSchema>;
/** The parsed `data/prices.json`. */
export type PriceTable = z.infer<typeof priceTableSchema>;

const PRICES_URL = new URL('../../data/prices.json', import.meta.url);
let loaded: PriceTable | undefined;

/** Reads and validates `data/prices.json` (or another file), once per process for the default file. */
export function loadPrices(file: URL | string = PRICES_URL): PriceTable {
  if (file === PRICES_URL && loaded) return loaded;
  const parsed = priceTableSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const name = String(file instanceof URL ? file.pathname : file);
    throw new InputError(
      parsed.error.issues.map((issue) => ({
        file: name,
        line: 1,
        field: issue.path.join('.'),
        message: issue.message,
      })),
    );
  }
  if (file === PRICES_URL) loaded = parsed.data;
  return parsed.data;
}

/** The first price row whose provider matches and whose pattern matches the model name, or null. */
export function findPrice(spec: ModelSpec, table: PriceTable = loadPrices()): Price | null {
  return (
    table.models.find(
      (row) => row.provider === spec.provider && new RegExp(row.model, 'i').test(spec.model),
    ) ?? null
  );
}

/**
 * USD for one call: cached input at the cached rate when known, the rest at the input rate; null when
 * usage or price is unknown. A batched call is billed at the batch rates (cached input included), null without them.
 */
export function costOf(
  usage: Usage | null,
  price: Price | null,
  options: { batch?: boolean } = {},
): number | null {
  if (!usage || !price) return null;
  // Lines written before usage was clamped (or edited by hand) may hold negative counts: never a negative cost.
  usage = saneUsage(usage).usage!;
  if (options.batch) {
    if (price.batch_input === undefined || price.batch_output === undefined) return null;
    return (
      (usage.inputTokens * price.batch_input + usage.outputTokens * price.batch_output) / 1_000_000
    );
  }
  const cached =
    price.cached_input !== undefined
      ? Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens)
      : 0;
  const cachedRate = price.cached_input ?? price.input;
  return (
    ((usage.inputTokens - cached) * price.input +
      cached * cachedRate +
      usage.outputTokens * price.output) /
    1_000_000
  );
}

/** Shorthand for `costOf(usage, findPrice(spec))`. */
export function costFor(spec: ModelSpec, usage: Usage | null, table?: PriceTable): number | null {
  return costOf(usage, findPrice(spec, table));
}
