/**
 * One judgement line → what the case browser shows: the case (query, tools, files, trajectory,
 * reference); the answer (raw text, parsed plan, verdict, findings) is `row-details.ts`. Pure; every
 * text is capped with a visible marker so one huge answer cannot bloat the report.
 */
import {
  normalizeChainNode,
  normalizeReferenceStep,
  normalizeTrajectoryEntry,
} from '../dataset/normalize.js';
import { TrajectoryEntrySchema } from '../dataset/record-schema.js';
import { parseUntrustedJson } from '../json-depth.js';

import { asObject, capText, stringOrNull, type Loose } from './capped-text.js';

export { capText, TEXT_CAP } from './capped-text.js';

/** Decodes a `*_json` dataset field (a JSON string or an already-decoded value); undefined when unreadable. */
export function decodeJsonField(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? undefined;
  try {
    return parseUntrustedJson(value);
  } catch {
    return undefined;
  }
}

/** A tool as the browser lists it. */
export interface ToolView {
  name: string;
  description: string;
  parameters: string | null;
  cost: number | null;
}

/** A file of the case; `media` indexes the report's embedded media, `note` says why there is none. */
export interface FileView {
  path: string;
  label: string | null;
  media: number | null;
  note: string | null;
}

/** One message of the executed trajectory prefix (step-wise cases). */
export interface MessageView {
  role: string;
  text: string;
  calls: string[];
}

/** Everything the browser shows about a case, shared by every answer to it. */
export interface CaseDetail {
  split: string;
  id: string;
  query: string;
  system: string | null;
  tools: ToolView[];
  files: FileView[];
  trajectory: MessageView[];
  reference: {
    plan: string | null;
    toolChain: string | null;
    nextSteps: string | null;
    remainingSteps: string | null;
    unsolvableType: string | null;
    extraneousTools: string[];
    brokenTool: string | null;
    replacementTool: string | null;
  };
  facets: Record<string, string | number | null>;
  /**
   * The reference as a list of calls (tool chain, or the next steps), for the step-by-step
   * comparison; empty when it has none.
   */
  referenceCalls: CallView[];
}

/**
 * One call of a plan as the step-by-step view shows it: tool name and compact arguments (text-only
 * steps: name null).
 */
export interface CallView {
  name: string | null;
  arguments: string;
}

/** A call's arguments as one line of JSON, capped. */
export function argumentsText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return capText(typeof value === 'string' ? value : JSON.stringify(value), 600);
}

/**
 * The reference's calls: the holistic tool chain, else the step-wise next steps (their text when a
 * step calls nothing).
 */
function referenceCallsOf(line: Loose): CallView[] {
  const chain = decodeJsonField(line.tool_chain_json);
  if (Array.isArray(chain) && chain.length > 0) {
    return chain
      .flatMap((node) => (asObject(node) ? [normalizeChainNode(node as Loose)] : []))
      .map((call) => ({ name: call.name, arguments: argumentsText(call.arguments) }));
  }
  const steps = decodeJsonField(line.ground_truth_steps_json);
  if (!Array.isArray(steps)) return [];
  return steps.flatMap((entry): CallView[] => {
    if (!asObject(entry)) return [];
    const step = normalizeReferenceStep(entry as Loose);
    if (step.toolCalls.length === 0)
      return [{ name: null, arguments: capText(step.text ?? '', 600) }];
    return step.toolCalls.map((call) => ({
      name: call.name,
      arguments: argumentsText(call.arguments),
    }));
  });
}

/**
 * A tool in any of the dataset's shapes (see `ToolDefinitionSchema`), read leniently for display;
 * null when it has no name.
 */
function toolOf(entry: unknown): ToolView | null {
  if (typeof entry === 'string') {
    const name = /^\s*([A-Za-z_][\w.-]*)\s*[(:]/.exec(entry)?.[1] ?? entry.trim();
    return name
      ? { name, description: capText(entry.trim(), 4000), parameters: null, cost: null }
      : null;
  }
  const loose = asObject(entry);
  if (!loose) return null;
  const inner = asObject(loose.function) ?? loose;
  const name = stringOrNull(inner.name) ?? stringOrNull(loose.tool_name);
  if (!name) return null;
  const parameters = inner.parameters ?? loose.parameters;
  return {
    name,
    description: capText(
      stringOrNull(inner.description) ?? stringOrNull(loose.description) ?? '',
      4000,
    ),
    parameters:
      parameters && typeof parameters === 'object'
        ? capText(JSON.stringify(parameters, null, 2), 8000)
        : null,
    cost: typeof loose.cost === 'number' ? loose.cost : null,
  };
}

function toolsOf(value: unknown): ToolView[] {
  const decoded = decodeJsonField(value);
  return Array.isArray(decoded)
    ? decoded.map(toolOf).filter((tool): tool is ToolView => tool !== null)
    : [];
}

function trajectoryOf(value: unknown): MessageView[] {
  const decoded = decodeJsonField(value);
  if (!Array.isArray(decoded)) return [];
  return decoded.flatMap((entry): MessageView[] => {
    const parsed = TrajectoryEntrySchema.safeParse(entry);
    if (!parsed.success) return [{ role: 'unreadable', text: capText(entry, 4000), calls: [] }];
    return normalizeTrajectoryEntry(parsed.data).map((message) => ({
      role: message.role,
      text: capText(
        [message.thought, message.action, message.text].filter(Boolean).join('\n'),
        8000,
      ),
      calls: message.toolCalls.map((call) =>
        capText(`${call.name}(${JSON.stringify(call.arguments ?? {})})`, 2000),
      ),
    }));
  });
}

/** Pretty JSON of a decoded field, capped; null when absent or empty. */
function prettyField(value: unknown): string | null {
  const decoded = decodeJsonField(value);
  if (decoded === undefined || decoded === null || (Array.isArray(decoded) && decoded.length === 0))
    return null;
  return capText(typeof decoded === 'string' ? decoded : JSON.stringify(decoded, null, 2));
}

/** The dataset `files` entries as paths and labels (the I/O layer resolves them to media). */
export function filesOf(line: Loose): { path: string; label: string | null }[] {
  const files = Array.isArray(line.files) ? line.files : [];
  return files.flatMap((entry) => {
    const object = asObject(entry);
    const path = typeof entry === 'string' ? entry : stringOrNull(object?.path);
    return path ? [{ path, label: stringOrNull(object?.type) }] : [];
  });
}

/** The case part of a judgement line; `media` maps a file path to its media index or a note. */
export function caseDetailOf(
  line: Loose,
  facets: Record<string, unknown>,
  media: (path: string) => { index: number | null; note: string | null },
): CaseDetail {
  const facetView: Record<string, string | number | null> = {};
  for (const [key, value] of Object.entries(facets))
    if (typeof value === 'string' || typeof value === 'number' || value === null)
      facetView[key] = value;
  return {
    split: String(line.split ?? ''),
    id: String(line.id ?? ''),
    query: capText(line.query),
    system: stringOrNull(line.system_prompt) ? capText(line.system_prompt) : null,
    tools: toolsOf(line.tools_json),
    files: filesOf(line).map((file) => ({ ...file, ...mediaFields(media(file.path)) })),
    trajectory: trajectoryOf(line.trajectory_prefix_json),
    reference: {
      plan: stringOrNull(line.plan) ? capText(line.plan) : null,
      toolChain: prettyField(line.tool_chain_json),
      nextSteps: prettyField(line.ground_truth_steps_json),
      remainingSteps: prettyField(line.reference_remaining_steps_json),
      unsolvableType: stringOrNull(line.unsolvable_type),
      extraneousTools: (() => {
        const names = decodeJsonField(line.extraneous_tool_names_json);
        return Array.isArray(names)
          ? names.filter((name): name is string => typeof name === 'string')
          : [];
      })(),
      brokenTool: stringOrNull(line.broken_tool_name),
      replacementTool: prettyField(line.replacement_tool_json),
    },
    facets: facetView,
    referenceCalls: referenceCallsOf(line),
  };
}

const mediaFields = (found: { index: number | null; note: string | null }) => ({
  media: found.index,
  note: found.note,
});

export type { RowDetail } from './row-details.js';
