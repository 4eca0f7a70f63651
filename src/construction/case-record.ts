/**
 * Constructed cases in the released layout: a record with every field of the layout in one fixed
 * order (so equal inputs give equal bytes), and its provenance line for `meta/{split}.jsonl`.
 */
import path from 'node:path';
import type { Case, SplitName, Stage, Tool, UnsolvableType } from '../dataset/case.js';
import { SPLIT_REGIME } from '../dataset/case.js';
import type {
  SourceCall,
  SourceMessage,
  SourceRecord,
  SourceTool,
  TrajectoryStep,
} from './source-record.js';

/** A reference chain node `{name, parameter_description, reason}`. */
export interface ChainNode {
  name: string;
  parameter_description: unknown;
  reason: string;
}

/** What a step sets; everything else takes the layout's empty value. */
export interface CaseFields {
  id: string;
  split: SplitName;
  query: string;
  systemPrompt: string | null;
  tools: readonly (Tool | SourceTool)[];
  files: readonly unknown[];
  provenance: Pick<SourceRecord, 'source' | 'source_subset' | 'task_family' | 'task_category'>;
  plan?: string | null;
  toolChain?: readonly ChainNode[];
  unsolvableType?: UnsolvableType | null;
  extraneousToolNames?: readonly string[];
  horizon?: number | null;
  prefix?: readonly unknown[];
  groundTruthSteps?: readonly unknown[];
  remainingSteps?: readonly unknown[];
  brokenToolName?: string | null;
  replacementTool?: Tool | SourceTool | null;
  stage?: Stage | null;
  baseCaseId: string | null;
  steps: number;
}

/** The fields every case made from a source record takes from it unchanged. */
export function sourceFields(
  record: SourceRecord,
): Pick<CaseFields, 'query' | 'systemPrompt' | 'tools' | 'files' | 'provenance'> {
  return {
    query: record.query,
    systemPrompt: record.system_prompt,
    tools: record.tools,
    files: record.files,
    provenance: record,
  };
}

/** A tool as written into `tools_json`: the case model's fields, nothing else. */
export function toolJson(tool: Tool | SourceTool): SourceTool {
  const out: SourceTool = { name: tool.name, description: tool.description };
  if (tool.parameters) out.parameters = tool.parameters;
  if (tool.cost !== undefined) out.cost = tool.cost;
  if (tool.example !== undefined) out.example = tool.example;
  return out;
}

/** The released-layout record of a constructed case. */
export function caseRecord(fields: CaseFields): Record<string, unknown> {
  const tools = fields.tools.map(toolJson);
  return {
    id: fields.id,
    split: fields.split,
    planning_regime: SPLIT_REGIME[fields.split],
    task_family: fields.provenance.task_family,
    task_category: fields.provenance.task_category,
    source: fields.provenance.source,
    source_subset: fields.provenance.source_subset,
    query: fields.query,
    tools_json: JSON.stringify(tools),
    tool_names_json: JSON.stringify(tools.map((tool) => tool.name)),
    plan: fields.plan ?? null,
    tool_chain_json: JSON.stringify(fields.toolChain ?? []),
    unsolvable_type: fields.unsolvableType ?? null,
    extraneous_tool_names_json: JSON.stringify(fields.extraneousToolNames ?? []),
    prediction_horizon: fields.horizon ?? null,
    trajectory_prefix_json: JSON.stringify(fields.prefix ?? []),
    ground_truth_steps_json: JSON.stringify(fields.groundTruthSteps ?? []),
    reference_remaining_steps_json: JSON.stringify(fields.remainingSteps ?? []),
    broken_tool_name: fields.brokenToolName ?? null,
    replacement_tool_json: fields.replacementTool
      ? JSON.stringify(toolJson(fields.replacementTool))
      : null,
    files: [...fields.files],
    system_prompt: fields.systemPrompt,
    stage: fields.stage ?? null,
    base_case_id: fields.baseCaseId,
    steps: fields.steps,
  };
}

/** A provenance line of `meta/{split}.jsonl`: how one case was made. */
export interface MetaLine {
  id: string;
  step: string;
  seed: number;
  parent_id: string | null;
  /** What the step generated and how (deterministic rule or model), step-specific. */
  generated: Record<string, unknown>;
  /** The model that generated part of the case, or null for deterministic steps. */
  model: string | null;
  prompt_version: string | null;
}

/** A file a case lists: its path in the record and where to copy it from. */
export interface Attachment {
  path: string;
  absolutePath: string;
  /** The directory `path` is relative to, when the file was not already resolved by the dataset reader (checked by real path before copying). */
  root?: string;
}

/** One constructed case: its split, its record, its provenance and the files to copy with it. */
export interface ConstructedCase {
  split: SplitName;
  record: Record<string, unknown>;
  meta: MetaLine;
  attachments: Attachment[];
}

/** The released layout's fields in the order every constructed record is written. */
export const RECORD_KEYS = [
  'id',
  'split',
  'planning_regime',
  'task_family',
  'task_category',
  'source',
  'source_subset',
  'query',
  'tools_json',
  'tool_names_json',
  'plan',
  'tool_chain_json',
  'unsolvable_type',
  'extraneous_tool_names_json',
  'prediction_horizon',
  'trajectory_prefix_json',
  'ground_truth_steps_json',
  'reference_remaining_steps_json',
  'broken_tool_name',
  'replacement_tool_json',
  'files',
  'system_prompt',
  'stage',
  'modality',
  'base_case_id',
  'steps',
] as const;

/**
 * A variant's record: the parent's record with `overrides`, in the layout's key order. Fields
 * outside the layout are not carried over (they may be a source's labels).
 */
export function derivedRecord(
  parent: Case,
  overrides: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...parent.record, ...overrides };
  if (overrides.split) merged.planning_regime = SPLIT_REGIME[overrides.split as SplitName];
  const out: Record<string, unknown> = {};
  for (const key of RECORD_KEYS) if (merged[key] !== undefined) out[key] = merged[key];
  return out;
}

/** The parent's attachments, to copy with a variant that keeps its files. */
export function attachmentsOf(parent: Case): Attachment[] {
  return parent.input.files.map((file) => ({ path: file.path, absolutePath: file.absolutePath }));
}

/** The files of a source record, resolved against the directory its `files` are relative to. */
export function sourceAttachments(record: SourceRecord, root: string | undefined): Attachment[] {
  if (record.files.length === 0) return [];
  if (root === undefined)
    throw new RangeError(
      `source record ${record.id} lists files but no source directory was given`,
    );
  return record.files.map((entry) => {
    const relative = typeof entry === 'string' ? entry : entry.path;
    return { path: relative, absolutePath: path.resolve(root, relative), root };
  });
}

/** The base case a variant belongs to: the parent's own base case, else the parent. */
export function baseCaseOf(parent: Case): string {
  const base = parent.record.base_case_id;
  return typeof base === 'string' && base ? base : parent.id;
}

/** Names of the tools a case's reference calls (chain, ground-truth and remaining steps). */
export function referenceToolNames(parent: Case): Set<string> {
  const { toolChain, groundTruthSteps, remainingSteps } = parent.reference;
  return new Set([
    ...toolChain.map((call) => call.name),
    ...[...groundTruthSteps, ...remainingSteps].flatMap((step) =>
      step.toolCalls.map((call) => call.name),
    ),
  ]);
}

/** A source trajectory message as a `trajectory_prefix_json` entry (OpenAI-style role message). */
export function prefixEntry(message: SourceMessage): Record<string, unknown> {
  if (message.role === 'assistant') {
    return {
      role: 'assistant',
      content: message.content,
      tool_calls: message.tool_calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
    };
  }
  if (message.role === 'tool')
    return {
      role: 'tool',
      tool_call_id: message.tool_call_id,
      name: message.name,
      content: message.content ?? NOT_EXECUTED,
    };
  return { role: 'user', content: message.content };
}

/** What a prefix shows for a call that was never executed. */
export const NOT_EXECUTED = '(no tool return recorded: this call was not executed)';

/** The first sentence of a description (at most 200 characters). */
export function firstSentence(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const match = /^(.+?[.!?])(\s|$)/.exec(trimmed);
  const sentence = match ? match[1]! : trimmed;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence;
}

/** Why a step calls its tool: the assistant's own words, else the tool's description (marked in meta by the caller). */
export function reasonOf(
  step: Pick<TrajectoryStep, 'content'>,
  call: SourceCall,
  tools: readonly SourceTool[],
): { reason: string; from: 'trajectory' | 'tool-description' } {
  const own = step.content.trim();
  if (own) return { reason: own, from: 'trajectory' };
  const tool = tools.find((candidate) => candidate.name === call.name);
  return {
    reason: tool?.description ? firstSentence(tool.description) : `Call ${call.name}.`,
    from: 'tool-description',
  };
}

/** A step as reference nodes: one chain node per call. */
export function chainNodesOf(step: TrajectoryStep, tools: readonly SourceTool[]): ChainNode[] {
  return step.calls.map((call) => ({
    name: call.name,
    parameter_description: call.arguments ?? {},
    reason: reasonOf(step, call, tools).reason,
  }));
}

/**
 * A step as one reference step of a step-wise case: a chain node when it makes one call (the
 * common case), an assistant message carrying every call when it makes several (parallel calls).
 */
export function referenceStepOf(step: TrajectoryStep, tools: readonly SourceTool[]): unknown {
  const nodes = chainNodesOf(step, tools);
  if (nodes.length === 1) return nodes[0];
  return prefixEntry({ role: 'assistant', content: step.content, tool_calls: step.calls });
}
