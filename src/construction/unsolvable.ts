/**
 * `unsolvable` (paper §3.1 "Unsolvable Planning", B.4.3, Figs. 14–17): holistic cases made
 * logically unsolvable, the reference being a refusal. `tool_removal` and `visual_missing` are
 * deterministic; `information_missing` and `contradictory_constraints` need a model. Rules:
 * docs/construction.md ("unsolvable").
 */
import { UNSOLVABLE_TYPES, type Case, type UnsolvableType } from '../dataset/case.js';
import { effectOfCall } from '../dataset/tool-effect.js';
import {
  attachmentsOf,
  baseCaseOf,
  derivedRecord,
  toolJson,
  type ConstructedCase,
} from './case-record.js';
import { NameSet } from './names.js';
import { readUnsolvableReply, unsolvablePrompt } from './prompts/unsolvable.js';
import { sampleByHash } from './random.js';
import { mapInOrder, type Skip, type StepContext, type StepResult } from './step.js';

/** The types that need `--llm`. */
export const MODEL_TYPES: readonly UnsolvableType[] = [
  'information_missing',
  'contradictory_constraints',
];

type Made = { cases: ConstructedCase[]; skipped: Skip[] };

/**
 * The tool a task cannot do without: the last state-changing tool of its reference chain (the
 * classification of dataset/tool-effect.ts, the structural judge's), else the
 * chain's last tool; never one another listed tool collides with (a near-copy could stand in).
 */
export function criticalTool(parent: Case): string | null {
  const listed = new Set(parent.input.tools.map((tool) => tool.name));
  const chain = parent.reference.toolChain
    .map((call) => call.name)
    .filter((name) => listed.has(name));
  const standsAlone = (name: string) =>
    !new NameSet(
      parent.input.tools.filter((tool) => tool.name !== name).map((tool) => tool.name),
    ).collides(name);
  const writes = chain.filter(
    (name) => effectOfCall(parent.input.tools, name) === 'state-changing' && standsAlone(name),
  );
  return writes.at(-1) ?? [...chain].reverse().find(standsAlone) ?? null;
}

function variant(
  parent: Case,
  type: UnsolvableType,
  overrides: Record<string, unknown>,
  plan: string,
  context: StepContext,
  generated: Record<string, unknown>,
  model: { id: string; promptVersion: string } | null,
): ConstructedCase {
  const id = `${parent.id}-unsolvable-${type}`;
  const files = (overrides.files as unknown[] | undefined) ?? parent.record.files;
  return {
    split: 'holistic_unsolvable',
    record: derivedRecord(parent, {
      id,
      split: 'holistic_unsolvable',
      plan,
      tool_chain_json: '[]',
      unsolvable_type: type,
      extraneous_tool_names_json: '[]',
      base_case_id: baseCaseOf(parent),
      ...overrides,
    }),
    meta: {
      id,
      step: 'unsolvable',
      seed: context.seed,
      parent_id: parent.id,
      generated: { unsolvable_type: type, ...generated },
      model: model?.id ?? null,
      prompt_version: model?.promptVersion ?? null,
    },
    attachments: Array.isArray(files) && files.length === 0 ? [] : attachmentsOf(parent),
  };
}

function toolRemoval(parent: Case, context: StepContext): ConstructedCase | Skip {
  const removed = criticalTool(parent);
  if (!removed)
    return {
      step: 'unsolvable',
      parent_id: parent.id,
      reason: 'tool_removal: no reference tool can be removed',
    };
  const tools = parent.input.tools.filter((tool) => tool.name !== removed).map(toolJson);
  const why = parent.reference.toolChain.find((call) => call.name === removed)?.reason;
  const plan = `The request cannot be completed with the listed tools: it needs ${removed}${why ? ` (${why.replace(/\.$/, '')})` : ''}, and no listed tool provides it. The agent should say so instead of planning around it.`;
  return variant(
    parent,
    'tool_removal',
    {
      tools_json: JSON.stringify(tools),
      tool_names_json: JSON.stringify(tools.map((tool) => tool.name)),
    },
    plan,
    context,
    { removed_tool: removed },
    null,
  );
}

function visualMissing(parent: Case, context: StepContext): ConstructedCase | Skip {
  const images = parent.input.files.filter(
    (file) => file.kind === 'image' || file.kind === 'video',
  );
  if (images.length === 0)
    return {
      step: 'unsolvable',
      parent_id: parent.id,
      reason: 'visual_missing: the case has no image or video',
    };
  const plan = `The request depends on visual content that is not provided (${images.map((file) => file.path.split('/').pop()).join(', ')}). Without it the task cannot be done; the agent should ask for it instead of guessing.`;
  return variant(
    parent,
    'visual_missing',
    { files: [] },
    plan,
    context,
    {
      removed_files: images.map((file) => file.path),
      removed_all_files: parent.input.files.length,
    },
    null,
  );
}

async function withModel(
  parent: Case,
  type: UnsolvableType,
  context: StepContext,
): Promise<ConstructedCase | Skip> {
  const model = context.model;
  if (!model) return { step: 'unsolvable', parent_id: parent.id, reason: `${type} needs --llm` };
  const prompt = unsolvablePrompt(parent, type);
  const reply = await model.ask(prompt);
  const read = reply.ok
    ? readUnsolvableReply(reply.value, parent)
    : { ok: false as const, reason: reply.reason };
  if (!read.ok)
    return {
      step: 'unsolvable',
      parent_id: parent.id,
      reason: `${type}: model reply unusable (${read.reason})`,
    };
  return variant(
    parent,
    type,
    { query: read.query },
    read.explanation,
    context,
    { original_query: parent.input.query },
    { id: model.id, promptVersion: prompt.promptVersion },
  );
}

async function variantsOf(
  parent: Case,
  types: readonly UnsolvableType[],
  context: StepContext,
): Promise<Made> {
  const made: Made = { cases: [], skipped: [] };
  for (const type of types) {
    const item =
      type === 'tool_removal'
        ? toolRemoval(parent, context)
        : type === 'visual_missing'
          ? visualMissing(parent, context)
          : await withModel(parent, type, context);
    if ('record' in item) made.cases.push(item);
    else made.skipped.push(item);
  }
  return made;
}

/** The release's 100 holistic parents, each made unsolvable in every type (§3.1: 400 = 100 × 4). */
export const DEFAULT_UNSOLVABLE_PARENTS = 100;

/**
 * Unsolvable variants of the holistic cases, one per asked type that applies: of every case, or of
 * a seeded sample of `maxParents` (by hash of the id), the others skipped with the reason.
 */
export async function constructUnsolvable(
  parents: readonly Case[],
  types: readonly UnsolvableType[] = UNSOLVABLE_TYPES,
  context: StepContext,
  maxParents: number | null = null,
): Promise<StepResult> {
  const holistic = parents.filter((parent) => parent.split === 'holistic_planning');
  const chosen =
    maxParents === null
      ? holistic
      : sampleByHash(holistic, maxParents, context.seed, 'unsolvable/parents', (item) => item.id);
  const notChosen: Skip[] = holistic
    .filter((parent) => !chosen.includes(parent))
    .map((parent) => ({
      step: 'unsolvable',
      parent_id: parent.id,
      reason: `not among the ${maxParents} sampled parents`,
    }));
  const made = await mapInOrder(chosen, context, (parent) => variantsOf(parent, types, context));
  return {
    cases: made.flatMap((item) => item.cases),
    skipped: [...notChosen, ...made.flatMap((item) => item.skipped)],
  };
}
