/**
 * `apb run --dry-run`: how many calls, tokens and dollars a run would take, per split and in total.
 * Reads and validates the selection and builds the real planner prompts; calls nothing and writes
 * nothing. Every figure is an estimate (see docs/engine.md, "Dry run").
 */
import type { Case, SplitName } from '../dataset/case.js';
import { runChecks } from '../judge/checks/index.js';
import { buildJudgePrompt, type JudgePromptOptions } from '../judge/rubric.js';
import { estimateInputTokens, imageTokensOf } from '../providers/estimate.js';
import { takesBatches } from '../providers/registry.js';
import type { Price } from '../providers/cost.js';
import { resolveSampling } from '../providers/model-options.js';
import { isCodeSpec } from '../providers/code/spec.js';
import { parseModelSpec } from '../providers/model-spec.js';
import type { SamplingParams } from '../providers/provider.js';
import type { PromptOptions } from '../settings/prompt.js';
import { DEFAULT_OUTPUT_TOKENS, estimatedCost, priceOfSpec, pricesAsOf } from './budget.js';
import { plannerPromptOf } from './evaluate-case.js';
import { checkSelection, selectedCases, type Selection } from './select-cases.js';

/** What a dry run is asked about. */
export interface DryRunRequest {
  selection: Selection;
  skipInvalid: boolean;
  promptOptions: PromptOptions;
  planner: { spec: string; sampling: SamplingParams };
  judges: string[];
  judgeOptions: JudgePromptOptions;
  /** `--batch`: openai, anthropic and google calls are estimated at their batch prices. */
  batch?: boolean;
}

/** Estimated work of one split (or the total). */
export interface DryRunRow {
  split: SplitName | 'total';
  cases: number;
  plannerCalls: number;
  judgeCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when a model involved has no known price. */
  costUsd: number | null;
}

/** The whole estimate, with the assumptions it rests on. */
export interface DryRunEstimate {
  rows: DryRunRow[];
  total: DryRunRow;
  invalidRecords: number;
  pricesAsOf: string;
  /** Models called over HTTP, with their output-token assumption and price (null = unknown). */
  models: CallModel[];
  /** The distinct images the planner prompts carry, and the largest of them. */
  images: ImageTally;
}

/** Distinct images sent (by content), their bytes, and the largest one with its pixel size and tokens. */
export interface ImageTally {
  count: number;
  bytes: number;
  largest: {
    path: string;
    bytes: number;
    width: number | null;
    height: number | null;
    tokens: number;
  } | null;
}

/** Adds a prompt's images to the tally (each image once, by its content hash). */
function tallyImages(
  tally: ImageTally,
  seen: Set<string>,
  prompt: ReturnType<typeof plannerPromptOf>,
): void {
  for (const message of prompt.messages) {
    for (const part of message.parts) {
      if (part.type === 'text' || seen.has(part.file.sha256)) continue;
      seen.add(part.file.sha256);
      tally.count += 1;
      tally.bytes += part.file.bytes;
      if (!tally.largest || part.file.bytes > tally.largest.bytes)
        tally.largest = {
          path: part.file.path,
          bytes: part.file.bytes,
          width: part.file.width ?? null,
          height: part.file.height ?? null,
          tokens: imageTokensOf(part.file),
        };
    }
  }
}

/** A model the estimate calls, with its output assumption and price. */
export interface CallModel {
  role: 'planner' | 'judge' | 'critic';
  spec: string;
  outputTokens: number;
  price: Price | null;
  /** Estimated at the batch price (`--batch` and a vendor with a batch API). */
  batch?: boolean;
}

/** A price row's batch rates as a plain price (null when the row has none). */
function batchPrice(price: Price | null): Price | null {
  if (!price || price.batch_input === undefined || price.batch_output === undefined) return null;
  return {
    ...price,
    input: price.batch_input,
    output: price.batch_output,
    cached_input: undefined,
  };
}

/** A model spec that makes HTTP calls, with its output cap (or the role's default); null for baselines and `rules`. */
export function callModel(
  role: CallModel['role'],
  spec: string,
  sampling: SamplingParams,
  batch = false,
): CallModel | null {
  const price = priceOfSpec(spec);
  if (price === 'free') return null;
  const outputCap = sampling.maxOutputTokens ?? DEFAULT_OUTPUT_TOKENS[role] ?? 1024;
  // A planner as code reports its own cost: its calls are counted, their price is unknown.
  if (isCodeSpec(spec)) return { role, spec, outputTokens: outputCap, price: null };
  const parsed = parseModelSpec(spec);
  const resolved = resolveSampling(parsed, sampling).sampling;
  const outputTokens = resolved.maxOutputTokens ?? DEFAULT_OUTPUT_TOKENS[role] ?? 1024;
  if (batch && takesBatches(parsed.provider))
    return { role, spec, outputTokens, price: batchPrice(price), batch: true };
  return { role, spec, outputTokens, price };
}

function emptyRow(split: DryRunRow['split']): DryRunRow {
  return {
    split,
    cases: 0,
    plannerCalls: 0,
    judgeCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
  };
}

function addCall(row: DryRunRow, model: CallModel, inputTokens: number, repeats: number): void {
  if (model.role === 'planner') row.plannerCalls += repeats;
  else row.judgeCalls += repeats;
  row.inputTokens += inputTokens * repeats;
  row.outputTokens += model.outputTokens * repeats;
  row.costUsd =
    row.costUsd === null || !model.price
      ? null
      : row.costUsd + estimatedCost(model.price, inputTokens, model.outputTokens) * repeats;
}

/**
 * The judge prompt of a case built around an empty answer, plus the planner's output estimate for
 * the answer it will quote: the planner prompt, the reference and the rubric are the real ones.
 */
export function judgeInputTokens(
  caseItem: Case,
  prompt: ReturnType<typeof plannerPromptOf>,
  answerTokens: number,
  options: JudgePromptOptions,
): number {
  const parsed = { kind: 'parse_error' as const, message: 'dry run: no answer yet' };
  const judgePrompt = buildJudgePrompt(
    {
      case: caseItem,
      plannerPrompt: prompt,
      rawAnswer: '',
      parsed,
      findings: runChecks(caseItem, parsed),
      repeat: 0,
    },
    options,
  );
  return estimateInputTokens(judgePrompt.prompt.messages) + answerTokens;
}

/** Estimates a run without calling anything; bad input throws as it would for the real run. */
export async function estimateRun(request: DryRunRequest): Promise<DryRunEstimate> {
  const check = await checkSelection(request.selection, request.skipInvalid);
  const planner = callModel(
    'planner',
    request.planner.spec,
    request.planner.sampling,
    request.batch,
  );
  const judges = request.judges
    .map((spec) => callModel('judge', spec, { temperature: 0 }, request.batch))
    .filter((model): model is CallModel => model !== null);
  const rows = new Map<SplitName, DryRunRow>();
  const repeats = request.selection.repeats;
  const images: ImageTally = { count: 0, bytes: 0, largest: null };
  const seenImages = new Set<string>();
  for await (const caseItem of selectedCases(request.selection, check)) {
    const row = rows.get(caseItem.split) ?? emptyRow(caseItem.split);
    rows.set(caseItem.split, row);
    row.cases += 1;
    if (!planner && judges.length === 0) continue;
    const prompt = plannerPromptOf(caseItem, request.promptOptions);
    tallyImages(images, seenImages, prompt);
    if (planner) addCall(row, planner, estimateInputTokens(prompt.messages), repeats);
    // A baseline's answer is short; an LLM's is assumed to fill its output estimate.
    const answerTokens = planner?.outputTokens ?? 200;
    for (const judge of judges)
      addCall(
        row,
        judge,
        judgeInputTokens(caseItem, prompt, answerTokens, request.judgeOptions),
        repeats,
      );
  }
  const total = emptyRow('total');
  for (const row of rows.values()) {
    for (const key of [
      'cases',
      'plannerCalls',
      'judgeCalls',
      'inputTokens',
      'outputTokens',
    ] as const)
      total[key] += row[key];
    total.costUsd =
      total.costUsd === null || row.costUsd === null ? null : total.costUsd + row.costUsd;
  }
  const models = [planner, ...judges].filter((model): model is CallModel => model !== null);
  return {
    rows: [...rows.values()],
    total,
    invalidRecords: check.invalidRecords,
    pricesAsOf: pricesAsOf(),
    models,
    images,
  };
}
