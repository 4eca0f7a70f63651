/**
 * `extraneous` (paper §3.1 "Tool-Extraneous Planning", B.4.1, Fig. 12): each of a seeded sample of
 * 150 holistic and 150 step-wise (next-1) parents gets nested distractor levels (a case's level-4 distractors include its level-2 ones, the
 * legacy harness's nesting) inserted at seeded positions. Distractors come from the model or from
 * a pool ranked by lexical similarity to the task; never a reference tool, never a name colliding
 * with a listed tool. Rules: docs/construction.md ("extraneous").
 */
import { scoreTools } from '../baselines/lexical.js';
import type { Case, SplitName, Tool } from '../dataset/case.js';
import {
  attachmentsOf,
  baseCaseOf,
  derivedRecord,
  referenceToolNames,
  toolJson,
  type ConstructedCase,
} from './case-record.js';
import { labelWordsIn } from './labels.js';
import type { ConstructionModel } from './model.js';
import { NameSet } from './names.js';
import { extraneousPrompt, readDistractorReply } from './prompts/extraneous.js';
import { randomFor, sampleByHash } from './random.js';
import type { SourceTool } from './source-record.js';
import { mapInOrder, type Skip, type StepContext, type StepResult } from './step.js';

/** Options of the extraneous step. */
export interface ExtraneousOptions {
  /** Distractor counts, each a level (default 2, 4, 6, 8, 10). */
  levels: number[];
  /** Candidate distractors for the deterministic path (`--pool FILE`). */
  pool: readonly SourceTool[];
  /** Parents per regime (holistic, step-wise), a seeded sample; null = every parent. */
  parentsPerRegime: number | null;
}

/** The release's 150 holistic and 150 step-wise parents (§3.1: 1,500 = 300 × 5 levels). */
export const DEFAULT_PARENTS_PER_REGIME = 150;

/** The paper's distractor counts n_e ∈ {2, 4, 6, 8, 10}. */
export const DEFAULT_LEVELS = [2, 4, 6, 8, 10];

const VARIANT_SPLIT: Partial<Record<SplitName, SplitName>> = {
  holistic_planning: 'holistic_tool_extraneous',
  step_wise_planning: 'step_wise_tool_extraneous',
};

/** A distractor with where it came from and its similarity to the task. */
interface Distractor {
  tool: SourceTool;
  score: number | null;
}

/** The text a distractor is compared with: the query and the tools the reference calls. */
function taskText(parent: Case): string {
  const used = referenceToolNames(parent);
  const described = parent.input.tools
    .filter((tool) => used.has(tool.name))
    .map((tool) => `${tool.name} ${tool.description}`);
  return [parent.input.query, ...described].join('\n');
}

/** Pool tools a case may take: no collision with a listed or reference tool, one per name key, no label words. */
export function eligiblePool(parent: Case, pool: readonly SourceTool[]): SourceTool[] {
  const taken = new NameSet([
    ...parent.input.tools.map((tool) => tool.name),
    ...referenceToolNames(parent),
  ]);
  const out: SourceTool[] = [];
  for (const tool of pool) {
    if (taken.collides(tool.name) || labelWordsIn(`${tool.name} ${tool.description}`).length > 0)
      continue;
    taken.add(tool.name);
    out.push(tool);
  }
  return out;
}

/** The `count` pool tools most similar to the task (BM25-lite over the pool, ties by name). */
export function rankPool(parent: Case, pool: readonly SourceTool[], count: number): Distractor[] {
  const eligible = eligiblePool(parent, pool);
  return scoreTools(taskText(parent), eligible as Tool[])
    .sort(
      (a, b) =>
        b.score - a.score || (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0),
    )
    .slice(0, count)
    .map((scored) => ({ tool: toolJson(scored.tool), score: Number(scored.score.toFixed(4)) }));
}

/**
 * Every level's tool list: distractor i is inserted at a seeded position of the list holding
 * distractors 1…i−1, so level L's list minus its last distractors is exactly an earlier level's list.
 */
export function nestedToolLists(
  tools: readonly Tool[],
  distractors: readonly SourceTool[],
  levels: readonly number[],
  seed: number,
  caseId: string,
): Map<number, SourceTool[]> {
  const random = randomFor(seed, 'extraneous', caseId, 'positions');
  const lists = new Map<number, SourceTool[]>();
  const current: SourceTool[] = tools.map(toolJson);
  distractors.forEach((tool, index) => {
    current.splice(random.int(0, current.length), 0, tool);
    if (levels.includes(index + 1)) lists.set(index + 1, [...current]);
  });
  return lists;
}

async function distractorsOf(
  parent: Case,
  options: ExtraneousOptions,
  count: number,
  model: ConstructionModel | undefined,
): Promise<{
  distractors: Distractor[];
  from: string;
  failure?: string;
  promptVersion: string | null;
}> {
  if (!model)
    return {
      distractors: rankPool(parent, options.pool, count),
      from: 'pool',
      promptVersion: null,
    };
  const prompt = extraneousPrompt(parent, count);
  const reply = await model.ask(prompt);
  const read = reply.ok
    ? readDistractorReply(reply.value, parent, count)
    : { ok: false as const, reason: reply.reason, tools: [] };
  const fromModel = read.tools;
  const topUp =
    fromModel.length < count && options.pool.length > 0
      ? rankPool(parent, [...fromModel, ...options.pool], count).filter(
          (item) => !fromModel.some((tool) => tool.name === item.tool.name),
        )
      : [];
  const distractors = [...fromModel.map((tool) => ({ tool, score: null })), ...topUp].slice(
    0,
    count,
  );
  return {
    distractors,
    from: topUp.length > 0 ? 'model+pool' : 'model',
    promptVersion: prompt.promptVersion,
    ...(read.ok ? {} : { failure: read.reason }),
  };
}

type Made = Awaited<ReturnType<typeof distractorsOf>>;

/** The level-`level` variant of a parent: its tools with the first `level` distractors. */
function levelCase(
  parent: Case,
  split: SplitName,
  level: number,
  tools: readonly SourceTool[],
  made: Made,
  context: StepContext,
): ConstructedCase {
  const id = `${parent.id}-x${level}`;
  const chosen = made.distractors.slice(0, level);
  return {
    split,
    record: derivedRecord(parent, {
      id,
      split,
      tools_json: JSON.stringify(tools),
      tool_names_json: JSON.stringify(tools.map((tool) => tool.name)),
      extraneous_tool_names_json: JSON.stringify(chosen.map((item) => item.tool.name)),
      base_case_id: baseCaseOf(parent),
    }),
    meta: {
      id,
      step: 'extraneous',
      seed: context.seed,
      parent_id: parent.id,
      generated: {
        level,
        distractors: chosen.map((item) => ({ name: item.tool.name, similarity: item.score })),
        from: made.from,
        ...(made.failure ? { model_failure: made.failure } : {}),
      },
      model: made.from === 'pool' ? null : (context.model?.id ?? null),
      prompt_version: made.promptVersion,
    },
    attachments: attachmentsOf(parent),
  };
}

async function variantsOf(
  parent: Case,
  options: ExtraneousOptions,
  context: StepContext,
): Promise<{ cases: ConstructedCase[]; skipped: Skip[] }> {
  const split = VARIANT_SPLIT[parent.split];
  const skip = (reason: string): Skip => ({ step: 'extraneous', parent_id: parent.id, reason });
  if (!split)
    return { cases: [], skipped: [skip(`split ${parent.split} has no tool-extraneous variant`)] };
  const levels = [...new Set(options.levels)].sort((a, b) => a - b);
  const made = await distractorsOf(parent, options, levels.at(-1) ?? 0, context.model);
  const lists = nestedToolLists(
    parent.input.tools,
    made.distractors.map((item) => item.tool),
    levels,
    context.seed,
    parent.id,
  );
  const skipped = levels
    .filter((level) => !lists.has(level))
    .map((level) =>
      skip(
        `level ${level}: only ${made.distractors.length} distractor(s) available${made.failure ? ` (model: ${made.failure})` : ''}`,
      ),
    );
  const cases = [...lists].map(([level, tools]) =>
    levelCase(parent, split, level, tools, made, context),
  );
  return { cases, skipped };
}

/**
 * The parents to vary: per regime, a seeded sample of `parentsPerRegime` (by hash of the id, so
 * input order does not matter). Step-wise parents are next-1 cases where there are any (the
 * paper's step-wise extraneous rows, Table 16, are next-1); the rest are skipped with the reason.
 */
export function chooseParents(
  parents: readonly Case[],
  perRegime: number | null,
  seed: number,
): { chosen: Case[]; skipped: Skip[] } {
  const skipped: Skip[] = [];
  const skip = (parent: Case, reason: string) =>
    skipped.push({ step: 'extraneous', parent_id: parent.id, reason });
  const chosen = new Set<Case>(parents.filter((parent) => !VARIANT_SPLIT[parent.split]));
  for (const split of ['holistic_planning', 'step_wise_planning'] as const) {
    let pool = parents.filter((parent) => parent.split === split);
    const nextOne = pool.filter((parent) => (parent.input.horizon ?? 1) === 1);
    if (split === 'step_wise_planning' && nextOne.length > 0 && nextOne.length < pool.length) {
      for (const parent of pool)
        if (!nextOne.includes(parent)) skip(parent, 'step-wise parents are next-1 cases');
      pool = nextOne;
    }
    const sample =
      perRegime === null
        ? pool
        : sampleByHash(pool, perRegime, seed, `extraneous/${split}`, (c) => c.id);
    for (const parent of pool)
      if (sample.includes(parent)) chosen.add(parent);
      else skip(parent, `not among the ${perRegime} sampled ${split} parents`);
  }
  return { chosen: parents.filter((parent) => chosen.has(parent)), skipped };
}

/** Tool-extraneous variants of a sample of the holistic and step-wise cases, at every level. */
export async function constructExtraneous(
  parents: readonly Case[],
  options: ExtraneousOptions,
  context: StepContext,
): Promise<StepResult> {
  const { chosen, skipped } = chooseParents(parents, options.parentsPerRegime, context.seed);
  const made = await mapInOrder(chosen, context, (parent) => variantsOf(parent, options, context));
  return {
    cases: made.flatMap((item) => item.cases),
    skipped: [...skipped, ...made.flatMap((item) => item.skipped)],
  };
}
