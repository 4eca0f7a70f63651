/**
 * The four unsolvable types of B.4.3, one builder each: `tool_removal` (Fig. 16: the critical tool
 * removed, the query mandating it), `visual_missing` (Fig. 17: the images or video removed),
 * `information_missing` (Fig. 14) and `contradictory_constraints` (Fig. 15: a needed tool made
 * offline or restricted, the query's constraints colliding with it). Rules: docs/construction.md.
 */
import type { Case, UnsolvableType } from '../dataset/case.js';
import { effectOfCall } from '../dataset/tool-effect.js';
import {
  attachmentsOf,
  baseCaseOf,
  derivedRecord,
  toolJson,
  type ConstructedCase,
} from './case-record.js';
import type { SourceTool } from './source-record.js';
import { NameSet } from './names.js';
import {
  readUnsolvableReply,
  unsolvablePrompt,
  type PromptedType,
  type UnsolvableReply,
} from './prompts/unsolvable.js';
import type { Skip, StepContext } from './step.js';

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

/** What one variant changes and records. */
interface Variant {
  overrides: Record<string, unknown>;
  plan: string;
  generated: Record<string, unknown>;
  model: { id: string; promptVersion: string } | null;
}

function variant(
  parent: Case,
  type: UnsolvableType,
  made: Variant,
  context: StepContext,
): ConstructedCase {
  const id = `${parent.id}-unsolvable-${type}`;
  const files = (made.overrides.files as unknown[] | undefined) ?? parent.record.files;
  return {
    split: 'holistic_unsolvable',
    record: derivedRecord(parent, {
      id,
      split: 'holistic_unsolvable',
      plan: made.plan,
      tool_chain_json: '[]',
      unsolvable_type: type,
      extraneous_tool_names_json: '[]',
      base_case_id: baseCaseOf(parent),
      ...made.overrides,
    }),
    meta: {
      id,
      step: 'unsolvable',
      seed: context.seed,
      parent_id: parent.id,
      generated: { unsolvable_type: type, ...made.generated },
      model: made.model?.id ?? null,
      prompt_version: made.model?.promptVersion ?? null,
    },
    attachments: Array.isArray(files) && files.length === 0 ? [] : attachmentsOf(parent),
  };
}

const skip = (parent: Case, reason: string): Skip => ({
  step: 'unsolvable',
  parent_id: parent.id,
  reason,
});

const toolFields = (tools: SourceTool[]) => ({
  tools_json: JSON.stringify(tools),
  tool_names_json: JSON.stringify(tools.map((tool) => tool.name)),
});

/** The model's checked rewrite, or why there is none. */
async function rewrite(
  parent: Case,
  type: PromptedType,
  context: StepContext,
  removed?: { name: string; description: string },
): Promise<{ read: UnsolvableReply; promptVersion: string }> {
  const prompt = unsolvablePrompt(parent, type, removed);
  const reply = await context.model!.ask(prompt);
  const read = reply.ok
    ? readUnsolvableReply(reply.value, parent, type, removed?.name)
    : { ok: false as const, reason: reply.reason };
  return { read, promptVersion: prompt.promptVersion };
}

/** The deterministic mandate of tool_removal without a model (or when its reply is unusable). */
export const mandateSentence = (tool: string) => `Please make sure this is done through ${tool}.`;

async function toolRemoval(parent: Case, context: StepContext): Promise<ConstructedCase | Skip> {
  const removed = criticalTool(parent);
  if (!removed) return skip(parent, 'tool_removal: no reference tool can be removed');
  const definition = parent.input.tools.find((tool) => tool.name === removed)!;
  const tools = parent.input.tools.filter((tool) => tool.name !== removed).map(toolJson);
  const why = parent.reference.toolChain.find((call) => call.name === removed)?.reason;
  const plan = `The request cannot be completed with the listed tools: it requires ${removed}${why ? ` (${why.replace(/\.$/, '')})` : ''}, and no listed tool provides it. The agent should say so instead of planning around it.`;
  const asked = context.model ? await rewrite(parent, 'tool_removal', context, definition) : null;
  const query = asked?.read.ok
    ? asked.read.query
    : `${parent.input.query.trimEnd()} ${mandateSentence(removed)}`;
  return variant(
    parent,
    'tool_removal',
    {
      overrides: { query, ...toolFields(tools) },
      plan,
      generated: {
        removed_tool: removed,
        mandate: asked?.read.ok ? 'model' : 'rule',
        ...(asked && !asked.read.ok ? { model_failure: asked.read.reason } : {}),
      },
      model: asked ? { id: context.model!.id, promptVersion: asked.promptVersion } : null,
    },
    context,
  );
}

/** Why visual_missing cannot apply to a case without images or video (Fig. 17 removes them). */
export const NO_VISUAL =
  'visual_missing: the case has no image or video to withhold (Fig. 17 removes a case’s visual files; text-only sources such as tau2-bench have none)';

function visualMissing(parent: Case, context: StepContext): ConstructedCase | Skip {
  const images = parent.input.files.filter(
    (file) => file.kind === 'image' || file.kind === 'video',
  );
  if (images.length === 0) return skip(parent, NO_VISUAL);
  const plan = `The request depends on visual content that is not provided (${images.map((file) => file.path.split('/').pop()).join(', ')}). Without it the task cannot be done; the agent should ask for it instead of guessing.`;
  const generated = {
    removed_files: images.map((file) => file.path),
    removed_all_files: parent.input.files.length,
  };
  return variant(
    parent,
    'visual_missing',
    { overrides: { files: [] }, plan, generated, model: null },
    context,
  );
}

async function withModel(
  parent: Case,
  type: 'information_missing' | 'contradictory_constraints',
  context: StepContext,
): Promise<ConstructedCase | Skip> {
  if (!context.model) return skip(parent, `${type} needs --llm`);
  const { read, promptVersion } = await rewrite(parent, type, context);
  if (!read.ok) return skip(parent, `${type}: model reply unusable (${read.reason})`);
  const restriction = read.restriction;
  const tools = parent.input.tools.map((tool) =>
    tool.name === restriction?.tool
      ? { ...toolJson(tool), description: `${tool.description.trimEnd()} ${restriction.sentence}` }
      : toolJson(tool),
  );
  return variant(
    parent,
    type,
    {
      overrides: { query: read.query, ...(restriction ? toolFields(tools) : {}) },
      plan: read.explanation,
      generated: {
        original_query: parent.input.query,
        ...(restriction
          ? { restricted_tool: restriction.tool, restriction: restriction.sentence }
          : {}),
      },
      model: { id: context.model.id, promptVersion },
    },
    context,
  );
}

/** One unsolvable variant of a holistic case, or why the type does not apply to it. */
export function unsolvableVariant(
  parent: Case,
  type: UnsolvableType,
  context: StepContext,
): Promise<ConstructedCase | Skip> | ConstructedCase | Skip {
  if (type === 'tool_removal') return toolRemoval(parent, context);
  if (type === 'visual_missing') return visualMissing(parent, context);
  return withModel(parent, type, context);
}
