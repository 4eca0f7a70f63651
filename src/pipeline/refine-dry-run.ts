/**
 * `apb refine --dry-run`: the critique, revision and judge calls a refinement would make, their
 * tokens and their cost, per split. The critique and revision requests are the real ones, built
 * around the saved initial answers; what cannot be known before the calls is assumed and printed
 * (docs/refine.md, "Dry run"). Calls nothing, writes nothing.
 */
import { SPLITS, type SplitName } from '../dataset/case.js';
import type { JudgePromptOptions } from '../judge/rubric.js';
import { estimateInputTokens, MESSAGE_OVERHEAD_TOKENS } from '../providers/estimate.js';
import type { SamplingParams } from '../providers/provider.js';
import {
  buildCritiquePrompt,
  buildRevisionPrompt,
  critiqueProfile,
} from '../refine/refine-prompts.js';
import { estimatedCost, pricesAsOf } from './budget.js';
import { callModel, judgeInputTokens, type CallModel } from './dry-run.js';
import { number, textTable, usd } from './dry-run-text.js';
import type { RefineSetup } from './records.js';
import type { RefineSource } from './refine-source.js';

/** Critique length assumed when the critic sets no lower output cap: a few paragraphs. */
export const CRITIQUE_TOKENS_ASSUMED = 400;

/** What a refinement dry run is asked about. */
export interface RefineDryRunRequest {
  source: RefineSource;
  setup: RefineSetup;
  /** The tested model (revisions) and the critic spec (self: the tested model). */
  testedModel: string;
  critic: string;
  judges: string[];
  /** The judge id as lines record it, to find the source's verdicts on the initial answers. */
  judgeId: string;
  judgeOptions: JudgePromptOptions;
}

/** Estimated work of one split (or the total). */
export interface RefineDryRunRow {
  split: SplitName | 'total';
  answers: number;
  criticCalls: number;
  revisionCalls: number;
  judgeCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

/** The estimate and the models it assumed. */
export interface RefineDryRunEstimate {
  rows: RefineDryRunRow[];
  total: RefineDryRunRow;
  models: CallModel[];
  critiqueTokens: number;
  pricesAsOf: string;
}

const textTokens = (text: string) =>
  estimateInputTokens([{ role: 'assistant', parts: [{ type: 'text', text }] }]) -
  MESSAGE_OVERHEAD_TOKENS;
const emptyRow = (split: RefineDryRunRow['split']): RefineDryRunRow => ({
  split,
  answers: 0,
  criticCalls: 0,
  revisionCalls: 0,
  judgeCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
});

function add(
  row: RefineDryRunRow,
  model: CallModel | null,
  kind: 'criticCalls' | 'revisionCalls' | 'judgeCalls',
  input: number,
  output: number,
): void {
  if (!model) return;
  row[kind] += 1;
  row.inputTokens += input;
  row.outputTokens += output;
  row.costUsd =
    row.costUsd === null || !model.price
      ? null
      : row.costUsd + estimatedCost(model.price, input, output);
}

/** The rows summed (a cost unknown in one row is unknown in the total). */
function totalOf(rows: readonly RefineDryRunRow[]): RefineDryRunRow {
  const total = emptyRow('total');
  for (const row of rows) {
    for (const key of [
      'answers',
      'criticCalls',
      'revisionCalls',
      'judgeCalls',
      'inputTokens',
      'outputTokens',
    ] as const)
      total[key] += row[key];
    total.costUsd =
      total.costUsd === null || row.costUsd === null ? null : total.costUsd + row.costUsd;
  }
  return total;
}

/** Estimates a refinement without calling anything. */
export function estimateRefine(request: RefineDryRunRequest): RefineDryRunEstimate {
  const { source, setup } = request;
  const sampling: SamplingParams = source.manifest.identity.sampling;
  const critic = callModel('critic', request.critic, setup.critic_sampling);
  const planner = callModel('planner', request.testedModel, sampling);
  const judges = request.judges
    .map((spec) => callModel('judge', spec, { temperature: 0 }))
    .filter((model): model is CallModel => model !== null);
  const critiqueTokens = Math.min(
    CRITIQUE_TOKENS_ASSUMED,
    critic?.outputTokens ?? CRITIQUE_TOKENS_ASSUMED,
  );
  const rows = new Map<SplitName, RefineDryRunRow>();
  for (const { caseItem, prediction, prompt } of source.items) {
    const row = rows.get(caseItem.split) ?? emptyRow(caseItem.split);
    rows.set(caseItem.split, row);
    row.answers += 1;
    if (prediction.apb.status === 'error') continue;
    const answer = prediction.model_response;
    // The revision is assumed as long as the initial answer (its reported length when the source has it).
    const answerTokens = prediction.apb.usage?.outputTokens || textTokens(answer);
    const profile = critiqueProfile(
      caseItem.split,
      caseItem.input,
      source.promptOptions.allowRefusal,
    );
    const critiqueInput = estimateInputTokens(
      buildCritiquePrompt({
        plannerPrompt: prompt,
        answer,
        profile,
        taxonomy: setup.taxonomy,
        mode: setup.mode,
      }).messages,
    );
    const revisionInput =
      estimateInputTokens(buildRevisionPrompt(prompt, answer, '').messages) + critiqueTokens;
    for (let round = 1; round <= setup.rounds; round += 1) {
      add(row, critic, 'criticCalls', critiqueInput, critiqueTokens);
      add(row, planner, 'revisionCalls', revisionInput, answerTokens);
    }
    const judged = source.verdicts.has(`${prediction.apb.fingerprint}|${request.judgeId}`);
    for (const judge of judges) {
      const input = judgeInputTokens(caseItem, prompt, answerTokens, request.judgeOptions);
      add(row, judge, 'judgeCalls', input, judge.outputTokens);
      if (!judged) add(row, judge, 'judgeCalls', input, judge.outputTokens);
    }
  }
  const ordered = SPLITS.flatMap((split) => (rows.has(split) ? [rows.get(split)!] : []));
  return {
    rows: ordered,
    total: totalOf(ordered),
    models: [critic, planner, ...judges].filter((model): model is CallModel => model !== null),
    critiqueTokens,
    pricesAsOf: pricesAsOf(),
  };
}

/** The estimate as printed by `apb refine --dry-run`. */
export function formatRefineDryRun(estimate: RefineDryRunEstimate, maxCostUsd?: number): string {
  const header = [
    'split',
    'answers',
    'critique calls',
    'revision calls',
    'judge calls',
    'input tokens',
    'output tokens',
    'cost (USD)',
  ];
  const cells = [...estimate.rows, estimate.total].map((row) => [
    row.split,
    number(row.answers),
    number(row.criticCalls),
    number(row.revisionCalls),
    number(row.judgeCalls),
    number(row.inputTokens),
    number(row.outputTokens),
    usd(row.costUsd),
  ]);
  const lines = [...textTable(header, cells), ''];
  for (const model of estimate.models) {
    const price = model.price
      ? `${model.price.input} / ${model.price.output} USD per million input / output tokens`
      : 'no price in data/prices.json (cost unknown)';
    const output =
      model.role === 'critic'
        ? `critique assumed ${number(estimate.critiqueTokens)} tokens`
        : model.role === 'planner'
          ? 'revision assumed as long as the initial answer'
          : `output assumed ${number(model.outputTokens)} tokens per call`;
    lines.push(`${model.role} ${model.spec}: ${price}; ${output}`);
  }
  lines.push(
    `estimates only: the critique and revision requests are built around the saved initial answers; tokens counted with gpt-tokenizer (o200k), 1,280 per image; a judge call on the initial answer is added where the source run has no verdict under this judge; no cache hits; prices as of ${estimate.pricesAsOf}`,
  );
  if (maxCostUsd !== undefined) {
    const cost = estimate.total.costUsd;
    lines.push(
      cost === null
        ? `--max-cost ${maxCostUsd}: the refinement would be refused (a model has no price)`
        : cost > maxCostUsd
          ? `--max-cost ${maxCostUsd}: it would stop early (about ${Math.floor((100 * maxCostUsd) / cost)}% of the estimate)`
          : `--max-cost ${maxCostUsd}: the estimate fits`,
    );
  }
  return `${lines.join('\n')}\n`;
}
