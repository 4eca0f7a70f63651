/**
 * `apb run --config FILE`: a run (or a leaderboard of several models) as one reproducible JSON or
 * YAML file. Its schema is `RunConfigSchema` (documented in docs/config.md); every problem is
 * reported as `FILE:LINE: field: message`. Paths in the file are relative to the file's folder.
 */
import path from 'node:path';
import { isMap, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { z } from 'zod';
import { configValuesOf, readConfigText } from './config-text.js';
import { InputError, type InputIssue } from '../errors.js';
import type { ModelEntry } from '../pipeline/run-spec.js';
import { didYouMean } from '../did-you-mean.js';
import { REASONING_EFFORTS } from '../providers/provider.js';

const positiveInt = z.number().int().positive();
const endpointLimits = {
  concurrency: positiveInt.max(1024).optional(),
  rpm: z.number().positive().optional(),
  tpm: z.number().positive().optional(),
};

/** `PROVIDER:MODEL` or `baseline:NAME` (which provider and model exist is checked when the run resolves them). */
const modelSpec = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9-]*:.+$/, 'expected PROVIDER:MODEL or baseline:NAME');

/** `rules` or `PROVIDER:MODEL`, with a hint for a near miss of `rules`. */
const judgeSpec = z.string().superRefine((value, context) => {
  if (value === 'rules' || /^[A-Za-z][A-Za-z0-9-]*:.+$/.test(value)) return;
  context.addIssue({
    code: 'custom',
    message: `expected rules or PROVIDER:MODEL${didYouMean(value, ['rules'])}`,
  });
});

/** One endpoint, or several endpoints of the same model (balanced by load). */
const baseUrls = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

const modelObject = z
  .object({
    model: modelSpec,
    base_url: baseUrls.optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: positiveInt.optional(),
    seed: z.number().int().optional(),
    reasoning_effort: z.enum(REASONING_EFFORTS).optional(),
    thinking_budget: z.number().int().min(0).optional(),
    timeout_ms: positiveInt.optional(),
    max_retries: z.number().int().min(0).max(20).optional(),
    ...endpointLimits,
  })
  .strict();

/** The config file: every key optional; unknown keys are errors (a typo never passes silently). */
export const RunConfigSchema = z
  .object({
    data: z.string().min(1).optional(),
    splits: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    limit: positiveInt.optional(),
    ids: z.array(z.string().min(1)).min(1).optional(),
    repeats: positiveInt.max(100).optional(),
    shard: z
      .string()
      .regex(/^(?:\d+\/\d+|auto)$/, 'expected I/N, e.g. 1/4, or auto')
      .optional(),
    protocol: z.enum(['paper', 'official']).optional(),
    allow_refusal: z.boolean().optional(),
    out: z.string().min(1).optional(),
    models: z
      .array(z.union([modelSpec, modelObject]))
      .min(1)
      .optional(),
    judges: z.array(judgeSpec).min(1).optional(),
    judge_base_url: baseUrls.optional(),
    judge_blind: z.boolean().optional(),
    engine: z
      .object({
        ...endpointLimits,
        timeout_ms: positiveInt.optional(),
        max_retries: z.number().int().min(0).max(20).optional(),
        cache: z.boolean().optional(),
        max_cost: z.number().positive().optional(),
        /** `--batch`, `--batch-poll-ms`, `--batch-max-requests`, `--batch-max-tokens`, `--batch-timeout` (seconds). */
        batch: z.boolean().optional(),
        batch_poll_ms: positiveInt.optional(),
        batch_max_requests: positiveInt.optional(),
        batch_max_tokens: positiveInt.optional(),
        batch_timeout: positiveInt.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
/** A parsed config file. */
export type RunConfig = z.infer<typeof RunConfigSchema>;

/** The config as `RunSpec` fields (the names `apb run`'s flags use), paths resolved against the file's folder. */
export type ConfigValues = Record<string, unknown> & { models?: ModelEntry[] };

/** `models[1].temperature` from a zod / YAML path. */
export function fieldName(keys: readonly PropertyKey[]): string {
  return (
    keys.reduce<string>(
      (text, key) =>
        typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key),
      '',
    ) || '(file)'
  );
}

/** The 1-based line of the node at `keys` (or of its nearest ancestor that exists). */
export function lineOf(doc: Document, counter: LineCounter, keys: readonly PropertyKey[]): number {
  for (let depth = keys.length; depth >= 0; depth -= 1) {
    const node =
      depth === 0
        ? doc.contents
        : (doc.getIn(keys.slice(0, depth) as unknown[], true) as Node | undefined);
    if (node && typeof node === 'object' && 'range' in node && node.range)
      return counter.linePos(node.range[0]).line;
  }
  return 1;
}

function unknownKeyIssues(
  doc: Document,
  counter: LineCounter,
  file: string,
  issue: z.core.$ZodIssue,
): InputIssue[] {
  if (issue.code !== 'unrecognized_keys') return [];
  const parent = issue.path;
  const container = parent.length === 0 ? doc.contents : doc.getIn(parent as unknown[], true);
  const allowed = knownKeys(parent);
  return issue.keys.map((key) => {
    let line = lineOf(doc, counter, parent);
    if (isMap(container)) {
      const pair = container.items.find(
        (item) => (item.key as { value?: unknown } | null)?.value === key,
      );
      const range = (pair?.key as Node | undefined)?.range;
      if (range) line = counter.linePos(range[0]).line;
    }
    return {
      file,
      line,
      field: fieldName([...parent, key]),
      message: `unknown key${didYouMean(key, allowed)}; known keys: ${allowed.join(', ')}`,
    };
  });
}

function knownKeys(parent: readonly PropertyKey[]): string[] {
  if (parent.length === 0) return Object.keys(RunConfigSchema.shape);
  if (parent[0] === 'engine') return Object.keys(RunConfigSchema.shape.engine.unwrap().shape);
  return Object.keys(modelObject.shape);
}

/** zod's message, with a model entry's union failure said as what an entry may be. */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union')
    return 'expected a model spec (PROVIDER:MODEL or baseline:NAME) or an entry {model: SPEC, ...options}';
  return issue.message;
}

/** Parses and validates a config file's text; `file` names it in every issue. */
export function parseRunConfig(text: string, file: string): RunConfig {
  const counter = new LineCounter();
  // YAML 1.2 is a superset of JSON, so one parser reads both and gives lines for either.
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new InputError(
      doc.errors.map((error) => ({
        file,
        line: error.linePos?.[0]?.line ?? 1,
        field: '(file)',
        message: `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0]}`,
      })),
    );
  }
  const parsed = RunConfigSchema.safeParse(configValuesOf(doc, file));
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.flatMap((issue) => {
    const unknown = unknownKeyIssues(doc, counter, file, issue);
    return unknown.length > 0
      ? unknown
      : [
          {
            file,
            line: lineOf(doc, counter, issue.path),
            field: fieldName(issue.path),
            message: issueMessage(issue),
          },
        ];
  });
  throw new InputError(issues.sort((a, b) => a.line - b.line));
}

function modelEntry(entry: NonNullable<RunConfig['models']>[number]): ModelEntry {
  if (typeof entry === 'string') return { spec: entry };
  const values: ModelEntry = {
    spec: entry.model,
    baseUrl: entry.base_url,
    temperature: entry.temperature,
    maxTokens: entry.max_tokens,
    seed: entry.seed,
    reasoningEffort: entry.reasoning_effort,
    thinkingBudget: entry.thinking_budget,
    timeoutMs: entry.timeout_ms,
    maxRetries: entry.max_retries,
    concurrency: entry.concurrency,
    rpm: entry.rpm,
    tpm: entry.tpm,
  };
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as ModelEntry;
}

/** A relative path in the file means relative to the file's folder; `sample` stays the built-in sample. */
function resolvePath(
  value: string | undefined,
  baseDir: string,
  keyword?: string,
): string | undefined {
  if (value === undefined || value === keyword || path.isAbsolute(value)) return value;
  return path.resolve(baseDir, value);
}

/** The config as `RunSpec` input (flag names); undefined values are left out so flags and defaults fill them. */
export function configValues(config: RunConfig, baseDir: string): ConfigValues {
  const engine = config.engine ?? {};
  const values: Record<string, unknown> = {
    data: resolvePath(config.data, baseDir, 'sample'),
    splits: Array.isArray(config.splits) ? config.splits.join(',') : config.splits,
    limit: config.limit,
    ids: config.ids,
    repeats: config.repeats,
    shard: config.shard,
    protocol: config.protocol,
    allowRefusal: config.allow_refusal,
    out: resolvePath(config.out, baseDir),
    models: config.models?.map(modelEntry),
    judges: config.judges,
    judgeBaseUrl: config.judge_base_url,
    judgeBlind: config.judge_blind,
    concurrency: engine.concurrency,
    rpm: engine.rpm,
    tpm: engine.tpm,
    timeoutMs: engine.timeout_ms,
    maxRetries: engine.max_retries,
    cache: engine.cache,
    maxCost: engine.max_cost,
    batch: engine.batch,
    batchPollMs: engine.batch_poll_ms,
    batchMaxRequests: engine.batch_max_requests,
    batchMaxTokens: engine.batch_max_tokens,
    batchTimeout: engine.batch_timeout,
  };
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as ConfigValues;
}

/** Reads `--config FILE` into `RunSpec` input; an unreadable file is a usage error, a bad one an input error. */
export function readRunConfig(file: string): ConfigValues {
  const text = readConfigText(file);
  return configValues(parseRunConfig(text, file), path.dirname(path.resolve(file)));
}
