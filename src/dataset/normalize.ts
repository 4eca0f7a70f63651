/** Pure conversions from the decoded dataset shapes to the case model's single shapes. */
import type { ReferenceStep, Tool, ToolCall, TrajectoryMessage } from './case.js';
import type { ToolDefinition, TrajectoryEntry } from './record-schema.js';
import { parseUntrustedJson } from '../json-depth.js';

type Loose = Record<string, unknown>;

/**
 * Parses a JSON-looking argument string (nested at most `maxDepth`, the JSON cap); anything else,
 * or a string nested deeper, is returned unchanged.
 */
export function parseArguments(value: unknown, maxDepth?: number): unknown {
  if (typeof value !== 'string') return value ?? {};
  const trimmed = value.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
  try {
    return parseUntrustedJson(trimmed, maxDepth);
  } catch {
    return value;
  }
}

const SIDE_EFFECT_WORDS: Record<string, boolean> = {
  none: true,
  read: true,
  'read-only': true,
  read_only: true,
  readonly: true,
  write: false,
  mutating: false,
  destructive: false,
};

/**
 * An explicit effect annotation, when the data has one: MCP's `annotations.readOnlyHint` /
 * `destructiveHint`, a `read_only` boolean, or a `side_effect(s)` boolean or word; true = read-only.
 */
function readOnlyAnnotation(...nodes: Loose[]): boolean | undefined {
  for (const node of nodes) {
    const annotations = (
      node.annotations && typeof node.annotations === 'object' ? node.annotations : {}
    ) as Loose;
    for (const hints of [annotations, node]) {
      if (typeof hints.readOnlyHint === 'boolean') return hints.readOnlyHint;
      if (hints.destructiveHint === true) return false;
    }
    if (typeof node.read_only === 'boolean') return node.read_only;
    const sideEffect = node.side_effect ?? node.side_effects;
    if (typeof sideEffect === 'boolean') return !sideEffect;
    if (
      typeof sideEffect === 'string' &&
      Object.hasOwn(SIDE_EFFECT_WORDS, sideEffect.trim().toLowerCase())
    )
      return SIDE_EFFECT_WORDS[sideEffect.trim().toLowerCase()];
  }
  return undefined;
}

/** One tool, whatever shape the dataset wrote it in. Plain strings take their leading identifier as name. */
export function normalizeTool(definition: ToolDefinition): Tool {
  if (typeof definition === 'string') {
    const match = /^\s*([A-Za-z_][\w.-]*)\s*[(:]/.exec(definition);
    return { name: match?.[1] ?? definition.trim(), description: definition.trim() };
  }
  const loose = definition as Loose;
  const inner = (loose.function as Loose | undefined) ?? loose;
  const name = String(inner.name ?? loose.tool_name ?? '');
  const tool: Tool = { name, description: String(inner.description ?? loose.description ?? '') };
  const parameters = inner.parameters ?? loose.parameters;
  if (parameters && typeof parameters === 'object')
    tool.parameters = parameters as Record<string, unknown>;
  if (typeof loose.cost === 'number') tool.cost = loose.cost;
  const readOnly = readOnlyAnnotation(loose, inner);
  if (readOnly !== undefined) tool.readOnly = readOnly;
  if (loose.example !== undefined && loose.example !== null) {
    tool.example =
      typeof loose.example === 'string' ? loose.example : JSON.stringify(loose.example);
  }
  return tool;
}

/** A tool-chain node or a `{name, arguments}` call (JSON-string arguments read under `maxDepth`). */
export function normalizeChainNode(node: Loose, maxDepth?: number): ToolCall {
  const call: ToolCall = {
    name: String(node.name ?? node.tool ?? node.tool_name ?? ''),
    arguments: parseArguments(
      node.parameter_description ?? node.arguments ?? node.parameters ?? {},
      maxDepth,
    ),
  };
  if (typeof node.reason === 'string') call.reason = node.reason;
  return call;
}

function textOf(content: unknown): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        typeof part === 'string'
          ? part
          : typeof (part as Loose)?.text === 'string'
            ? (part as Loose).text
            : '',
      )
      .filter(Boolean)
      .join('\n');
  }
  return JSON.stringify(content);
}

function toolCallsOf(raw: unknown, maxDepth: number | undefined): ToolCall[] {
  if (!raw) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((entry) => {
    const loose = entry as Loose;
    const fn = (loose.function as Loose | undefined) ?? loose;
    return { name: String(fn.name ?? ''), arguments: parseArguments(fn.arguments, maxDepth) };
  });
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function roleOf(raw: string): TrajectoryMessage['role'] {
  const lower = raw.toLowerCase();
  if (ROLES.has(lower)) return lower as TrajectoryMessage['role'];
  if (lower === 'function' || lower === 'observation') return 'tool';
  if (lower === 'model' || lower === 'agent') return 'assistant';
  return 'user';
}

/**
 * A trajectory entry as one or two messages. The converted `{step, thought, tool, arguments,
 * observation}` shape becomes an assistant call plus its tool return; provenance fields such as
 * `observation_source` are dropped because they are labels, not something an agent would see.
 * JSON-string arguments are read under `maxDepth` (the JSON cap).
 */
export function normalizeTrajectoryEntry(
  entry: TrajectoryEntry,
  maxDepth?: number,
): TrajectoryMessage[] {
  const loose = entry as Loose;
  if (typeof loose.role === 'string') {
    const message: TrajectoryMessage = {
      role: roleOf(loose.role),
      text: textOf(loose.content),
      toolCalls: toolCallsOf(loose.tool_calls, maxDepth),
    };
    if (typeof loose.thought === 'string' && loose.thought) message.thought = loose.thought;
    if (loose.action !== undefined && loose.action !== null) message.action = textOf(loose.action);
    return [message];
  }
  const messages: TrajectoryMessage[] = [];
  const call =
    typeof loose.tool === 'string' && loose.tool
      ? [{ name: loose.tool, arguments: parseArguments(loose.arguments, maxDepth) }]
      : [];
  const assistant: TrajectoryMessage = { role: 'assistant', text: '', toolCalls: call };
  if (typeof loose.thought === 'string' && loose.thought) assistant.thought = loose.thought;
  messages.push(assistant);
  if ('observation' in loose)
    messages.push({ role: 'tool', text: textOf(loose.observation), toolCalls: [] });
  return messages;
}

/** A reference step from either a chain node or a trajectory message. */
export function normalizeReferenceStep(entry: Loose, maxDepth?: number): ReferenceStep {
  if (typeof entry.role === 'string') {
    const [message] = normalizeTrajectoryEntry(entry as TrajectoryEntry, maxDepth);
    const step: ReferenceStep = { toolCalls: message!.toolCalls };
    const text = [message!.thought, message!.text, message!.action].filter(Boolean).join('\n');
    if (text) step.text = text;
    return step;
  }
  if (entry.name ?? entry.tool_name ?? (typeof entry.tool === 'string' && entry.tool)) {
    const call = normalizeChainNode(entry, maxDepth);
    const step: ReferenceStep = { toolCalls: [call] };
    if (call.reason) step.reason = call.reason;
    if (typeof entry.thought === 'string') step.text = entry.thought;
    return step;
  }
  const step: ReferenceStep = { toolCalls: [] };
  if (typeof entry.thought === 'string') step.text = entry.thought;
  return step;
}
