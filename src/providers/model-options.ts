/**
 * Per-model request options as data: `data/model-defaults.json` fills SamplingParams with each model's defaults and
 * adapts them to the endpoint (fields it rejects, structural fields moved into providerOptions). No vendor names here.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { PROVIDERS, type ModelSpec, type ProviderId } from './model-spec.js';
import { REASONING_EFFORTS, type Provider, type SamplingParams } from './provider.js';

const FIELDS = [
  'temperature',
  'maxOutputTokens',
  'seed',
  'reasoningEffort',
  'thinkingBudget',
] as const;
type Field = (typeof FIELDS)[number];

const providerId = z.enum(Object.keys(PROVIDERS) as [ProviderId, ...ProviderId[]]);
const pattern = z.string().refine((text) => isRegExp(text), 'not a valid regular expression');
const samplingDefaults = z
  .object({
    temperature: z.number().min(0).nullable(),
    maxOutputTokens: z.number().int().positive().nullable(),
    seed: z.number().int().nullable(),
    reasoningEffort: z.enum(REASONING_EFFORTS).nullable(),
    thinkingBudget: z.number().int().min(0).nullable(),
  })
  .partial()
  .strict();
const mapping = z
  .object({
    path: z.string().min(1),
    value: z.unknown().optional(),
    whenZero: z.unknown().optional(),
    omit: z.array(z.enum(FIELDS)).optional(),
  })
  .strict();
const modelDefaultsSchema = z.object({
  as_of: z.string(),
  note: z.string(),
  defaults: samplingDefaults,
  models: z.array(
    z
      .object({
        provider: providerId,
        model: pattern,
        sampling: samplingDefaults,
        source: z.string().optional(),
      })
      .strict(),
  ),
  rules: z.array(
    z
      .object({
        name: z.string(),
        provider: providerId,
        model: pattern,
        omit: z.array(z.enum(FIELDS)).optional(),
        map: z
          .object({ maxOutputTokens: mapping, reasoningEffort: mapping, thinkingBudget: mapping })
          .partial()
          .strict()
          .optional(),
        note: z.string().optional(),
      })
      .strict(),
  ),
});

/** The parsed `data/model-defaults.json`. */
export type ModelDefaults = z.infer<typeof modelDefaultsSchema>;

/** SamplingParams fitted to one model and endpoint, plus what was dropped and why. */
export interface ResolvedSampling {
  sampling: SamplingParams;
  warnings: string[];
}

const DEFAULTS_URL = new URL('../../data/model-defaults.json', import.meta.url);
let loaded: ModelDefaults | undefined;

/** Reads and validates `data/model-defaults.json` (or another file), once per process for the default file. */
export function loadModelDefaults(file: URL | string = DEFAULTS_URL): ModelDefaults {
  if (file === DEFAULTS_URL && loaded) return loaded;
  const parsed = modelDefaultsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
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
  if (file === DEFAULTS_URL) loaded = parsed.data;
  return parsed.data;
}

/**
 * Fills `requested` with the model's defaults, then applies the endpoint rules; explicit
 * `providerOptions` win over mapped ones.
 */
export function resolveSampling(
  spec: ModelSpec,
  requested: SamplingParams,
  table: ModelDefaults = loadModelDefaults(),
): ResolvedSampling {
  const warnings: string[] = [];
  const matches = (entry: { provider: ProviderId; model: string }) =>
    entry.provider === spec.provider && new RegExp(entry.model, 'i').test(spec.model);
  const modelEntry = table.models.find(matches);
  const values: Partial<Record<Field, unknown>> = {};
  for (const field of FIELDS) {
    const value =
      requested[field] !== undefined
        ? requested[field]
        : modelEntry?.sampling[field] !== undefined
          ? modelEntry.sampling[field]
          : table.defaults[field];
    if (value !== undefined && value !== null) values[field] = value;
  }
  const explicit = (field: Field) => requested[field] !== undefined;
  const drop = (field: Field, why: string) => {
    if (values[field] === undefined) return;
    if (explicit(field))
      warnings.push(`${field} dropped for ${spec.provider}:${spec.model}: ${why}`);
    delete values[field];
  };
  const mapped: Record<string, unknown> = {};
  for (const rule of table.rules.filter(matches)) {
    for (const field of rule.omit ?? []) drop(field, `rule ${rule.name}`);
    for (const [field, map] of Object.entries(rule.map ?? {}) as Array<
      [Field, z.infer<typeof mapping>]
    >) {
      const value = values[field];
      if (value === undefined) continue;
      const template =
        value === 0 && map.whenZero !== undefined ? map.whenZero : (map.value ?? '$value');
      setPath(mapped, map.path, fillTemplate(template, value));
      delete values[field];
      if (value !== 0)
        for (const other of map.omit ?? [])
          drop(other, `rule ${rule.name} with ${field} ${String(value)}`);
    }
  }
  for (const field of ['reasoningEffort', 'thinkingBudget'] as const)
    drop(field, 'no rule maps it for this model');
  const providerOptions = mergeOptions(spec.provider, mapped, requested.providerOptions);
  const sampling: SamplingParams = {
    ...passedAsGiven(requested),
    ...(values.temperature !== undefined ? { temperature: values.temperature as number } : {}),
    ...(values.maxOutputTokens !== undefined
      ? { maxOutputTokens: values.maxOutputTokens as number }
      : {}),
    ...(values.seed !== undefined ? { seed: values.seed as number } : {}),
    ...(providerOptions ? { providerOptions } : {}),
  };
  return { sampling, warnings };
}

/** A Provider that resolves each request's sampling before passing it on, so the cache key sees what is really sent. */
export function withModelOptions(
  provider: Provider,
  policy: { spec: ModelSpec; table?: ModelDefaults },
): Provider {
  const table = policy.table ?? loadModelDefaults();
  // A run asks with the same sampling on every call: resolve each distinct request once.
  const resolved = new Map<string, ResolvedSampling>();
  return {
    id: provider.id,
    async generate(request, signal) {
      const key = JSON.stringify(request.sampling);
      let entry = resolved.get(key);
      if (!entry)
        resolved.set(key, (entry = resolveSampling(policy.spec, request.sampling, table)));
      const { sampling, warnings } = entry;
      const result = await provider.generate({ ...request, sampling }, signal);
      const all = [...warnings, ...(result.warnings ?? [])];
      return all.length > 0 ? { ...result, warnings: all } : result;
    },
  };
}

/** The options no rule changes (a client's top_p, stop sequences, penalties, reply format), as requested. */
function passedAsGiven(requested: SamplingParams): SamplingParams {
  const { topP, stopSequences, presencePenalty, frequencyPenalty, responseFormat } = requested;
  return Object.fromEntries(
    Object.entries({
      topP,
      stopSequences,
      presencePenalty,
      frequencyPenalty,
      responseFormat,
    }).filter(([, value]) => value !== undefined),
  );
}

function mergeOptions(
  provider: ProviderId,
  mapped: Record<string, unknown>,
  explicit: SamplingParams['providerOptions'],
): SamplingParams['providerOptions'] {
  const merged: Record<string, Record<string, unknown>> = {};
  if (Object.keys(mapped).length > 0) merged[provider] = mapped;
  for (const [key, options] of Object.entries(explicit ?? {}))
    merged[key] = deepMerge(merged[key] ?? {}, options);
  return Object.keys(merged).length > 0 ? merged : undefined;
}

function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const result = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = result[key];
    result[key] =
      isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return result;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (!isPlainObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
}

function fillTemplate(template: unknown, value: unknown): unknown {
  if (template === '$value') return value;
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, value));
  if (isPlainObject(template))
    return Object.fromEntries(
      Object.entries(template).map(([key, item]) => [key, fillTemplate(item, value)]),
    );
  return template;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRegExp(text: string): boolean {
  try {
    new RegExp(text, 'i');
    return true;
  } catch {
    return false;
  }
}

/**
 * The table with its defaults taken out but its endpoint rules kept: a client's request as it asked (no
 * temperature when it gave none), still fitted to what the endpoint accepts. `apb serve` forwards with it.
 */
export function withoutDefaults(table: ModelDefaults = loadModelDefaults()): ModelDefaults {
  return { ...table, defaults: {}, models: [] };
}
