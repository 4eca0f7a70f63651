/**
 * The paper's rule-based structural validation (Appendix B.2, Figure 8), pure: every tool call in
 * a case's trajectory prefix and in its reference (chain, next steps, remaining steps) names a
 * listed tool, and every prefix call's arguments are valid against the tool's JSON schema
 * (nested, required names included). Used by `apb data validate` and `apb construct check`.
 * Which findings are errors and which are warnings, and why: docs/datasets.md ("Rule check").
 */
import type { Case, ToolCall } from './case.js';
import {
  normalizeChainNode,
  normalizeReferenceStep,
  normalizeTrajectoryEntry,
} from './normalize.js';
import { isPlaceholder } from './placeholders.js';
import type { TrajectoryEntry } from './record-schema.js';
import { argumentSchemaProblems, hasArgumentSchema, isListedTool } from './tool-arguments.js';

/** One finding of the rule check: the record field it concerns, what is wrong, and how bad it is. */
export interface RuleIssue {
  /** The record field, e.g. `trajectory_prefix_json[2].arguments.flights[0].date`. */
  field: string;
  message: string;
  /** `error`: B.2 would drop the record; `warning`: it stays usable, but a judge will trip over it. */
  severity: 'error' | 'warning';
}

/** Version of the rules below; `apb construct check` records it with its output. */
export const RULE_CHECK_VERSION = '1';

type Loose = Record<string, unknown>;

/** A `*_json` field of the record as a list (decoded again: field paths need the raw indices). */
function rawList(record: Loose, field: string): unknown[] {
  let value = record[field];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(value) ? value : [];
}

const CALL_KEYS = ['tool', 'name', 'tool_name'];

/**
 * The key naming the tool when the entry is itself one call (`{tool, arguments}`, `{name,
 * parameter_description}`), else null.
 */
function ownCallKey(entry: unknown): string | null {
  const loose = (entry && typeof entry === 'object' ? entry : {}) as Loose;
  return CALL_KEYS.find((key) => typeof loose[key] === 'string' && loose[key] !== '') ?? null;
}

/** Where the j-th call of a raw entry sits: the entry itself, or `.tool_calls[j]` of a chat message. */
function callField(entry: unknown, index: number): string {
  return ownCallKey(entry) ? '' : `.tool_calls[${index}]`;
}

/** The field holding the j-th call's tool name. */
function nameField(entry: unknown, index: number): string {
  const key = ownCallKey(entry);
  return key ? `.${key}` : `.tool_calls[${index}].function.name`;
}

/** The field holding the j-th call's arguments. */
function argumentsField(entry: unknown, index: number): string {
  if (!ownCallKey(entry)) return `.tool_calls[${index}].function.arguments`;
  const loose = entry as Loose;
  return `.${['arguments', 'parameter_description', 'parameters'].find((key) => key in loose) ?? 'arguments'}`;
}

/** The calls of one raw prefix entry (the normaliser's reading, so the checks see what the planner sees). */
function prefixCalls(entry: unknown, jsonDepth: number | undefined): ToolCall[] {
  return normalizeTrajectoryEntry(entry as TrajectoryEntry, jsonDepth).flatMap(
    (message) => message.toolCalls,
  );
}

function checkPrefix(caseItem: Case, issues: RuleIssue[], jsonDepth: number | undefined): void {
  const tools = new Map(caseItem.input.tools.map((tool) => [tool.name, tool]));
  rawList(caseItem.record, 'trajectory_prefix_json').forEach((entry, entryIndex) => {
    prefixCalls(entry, jsonDepth).forEach((call, callIndex) => {
      const at = `trajectory_prefix_json[${entryIndex}]`;
      if (!isListedTool(caseItem.input, call.name)) {
        issues.push({
          field: `${at}${nameField(entry, callIndex)}`,
          message: `calls "${call.name}", which is not a listed tool`,
          severity: 'error',
        });
        return;
      }
      const tool = tools.get(call.name);
      if (!tool || !hasArgumentSchema(tool)) return;
      // A literal that breaks the schema is a format violation; a declared placeholder ("<id from
      // step 1>") in an executed call is synthetic data's known limit, reported but not fatal.
      const literal = new Set(
        argumentSchemaProblems(tool, call.arguments, { skip: isPlaceholder }).map(
          (problem) => `${problem.kind}:${problem.path}`,
        ),
      );
      for (const problem of argumentSchemaProblems(tool, call.arguments)) {
        const path = problem.path ? `.${problem.path}` : '';
        const detail = problem.detail ? ` (${problem.detail})` : '';
        const isLiteral = literal.has(`${problem.kind}:${problem.path}`);
        const message = isLiteral
          ? `${problem.kind.replace(/-/g, ' ')} for ${call.name}${detail}`
          : `a placeholder stands for a value the executed call had (${call.name}${detail ? `: ${problem.detail}` : ''})`;
        issues.push({
          field: `${at}${argumentsField(entry, callIndex)}${path}`,
          message,
          severity: isLiteral ? 'error' : 'warning',
        });
      }
    });
  });
}

/** A reference field's calls with their field paths. */
function referenceCalls(
  caseItem: Case,
  jsonDepth: number | undefined,
): { field: string; argumentsField: string; call: ToolCall }[] {
  const found: { field: string; argumentsField: string; call: ToolCall }[] = [];
  rawList(caseItem.record, 'tool_chain_json').forEach((node, index) => {
    const field = `tool_chain_json[${index}]`;
    found.push({
      field,
      argumentsField: `${field}${argumentsField(node, 0)}`,
      call: normalizeChainNode((node ?? {}) as Loose, jsonDepth),
    });
  });
  for (const name of ['ground_truth_steps_json', 'reference_remaining_steps_json']) {
    rawList(caseItem.record, name).forEach((entry, index) => {
      const { toolCalls } = normalizeReferenceStep((entry ?? {}) as Loose, jsonDepth);
      toolCalls.forEach((call, callIndex) => {
        const field = `${name}[${index}]`;
        found.push({
          field: `${field}${callField(entry, callIndex)}`,
          argumentsField: `${field}${argumentsField(entry, callIndex)}`,
          call,
        });
      });
    });
  }
  return found;
}

function checkReference(caseItem: Case, issues: RuleIssue[], jsonDepth: number | undefined): void {
  const { split, reference } = caseItem;
  const tools = new Map(caseItem.input.tools.map((tool) => [tool.name, tool]));
  const distractors = new Set(reference.extraneousToolNames);
  // A tool-removal case's reference may use the removed tool: that is what makes it unsolvable.
  const removalAllowed =
    split === 'holistic_unsolvable' && reference.unsolvableType === 'tool_removal';
  for (const { field, argumentsField: at, call } of referenceCalls(caseItem, jsonDepth)) {
    if (!call.name) continue;
    if (distractors.has(call.name))
      issues.push({
        field,
        message: `the reference calls "${call.name}", which is one of the case's distractors`,
        severity: 'error',
      });
    if (!isListedTool(caseItem.input, call.name)) {
      if (!removalAllowed)
        issues.push({
          field,
          message: `the reference calls "${call.name}", which is not a listed tool`,
          severity: 'error',
        });
      continue;
    }
    const tool = tools.get(call.name);
    if (!tool || !hasArgumentSchema(tool)) continue;
    // Reference values may be placeholders ("<movie_id from step 1>"); a real problem is a warning:
    // the case stays usable, but even a replay of the reference would be marked E5.
    for (const problem of argumentSchemaProblems(tool, call.arguments, { skip: isPlaceholder })) {
      const detail = problem.detail ? ` (${problem.detail})` : '';
      issues.push({
        field: `${at}${problem.path ? `.${problem.path}` : ''}`,
        message: `reference ${problem.kind.replace(/-/g, ' ')} for ${call.name}${detail}`,
        severity: 'warning',
      });
    }
  }
}

/**
 * The rule check of one case: every finding, errors first within each part, in field order (its
 * raw tool-call arguments read under `jsonDepth`, the JSON cap).
 */
export function ruleCheck(caseItem: Case, jsonDepth?: number): RuleIssue[] {
  const issues: RuleIssue[] = [];
  if (!caseItem.input.query.trim())
    issues.push({ field: 'query', message: 'is empty', severity: 'error' });
  if (caseItem.input.tools.length === 0 && !caseItem.input.systemPrompt)
    issues.push({
      field: 'tools_json',
      message: 'lists no tool, and there is no system prompt that could',
      severity: 'error',
    });
  checkPrefix(caseItem, issues, jsonDepth);
  checkReference(caseItem, issues, jsonDepth);
  return issues;
}
