/**
 * Fig. 7's intent (B.1, data augmentation) in this project's words: a seed task made into a longer
 * planning task — the query enriched, the tool set expanded, the trajectory extended by simulated
 * steps with their returns. The official repository releases no construction prompt (audit §6).
 */
import type { Tool } from '../../dataset/case.js';
import { argumentSchemaProblems } from '../../dataset/tool-arguments.js';
import { versionOf } from '../../settings/prompt.js';
import { newLabelWords } from '../labels.js';
import type { ModelPrompt } from '../model.js';
import { NameSet } from '../names.js';
import type { SourceRecord, SourceTool } from '../source-record.js';
import { taskText, trajectoryText } from './render.js';
import { readTool } from './tool-reply.js';

const SYSTEM = `You make a seed agent task harder for a planning benchmark, in three coordinated parts:
1. Query enrichment: rewrite the user's query into a more demanding request that keeps everything the original asks and adds further goals, conditions or deliverables that need more tool calls (a comparison, a follow-up action, a check, a record to file). It must stay realistic for the task's domain and be written as the user's own words.
2. Tool-set expansion: write new tools the enriched request needs, in the style of the listed ones (same domain, snake_case names, a JSON schema for the arguments).
3. Trajectory extension: continue the executed trajectory with the new steps that fulfil the added goals, in order, each calling one listed or new tool with arguments that satisfy its schema, and simulate what the tool returns (realistic, consistent with the earlier returns).
Never say that the task was extended, that tools are new or simulated, or that anything is a test.
Answer with one JSON object and nothing else:
{"query": "the enriched query", "new_tools": [{"name": "...", "description": "...", "parameters": {"type": "object", "properties": {...}, "required": [...]}}], "steps": [{"thought": "why this step", "tool": "tool name", "arguments": {...}, "result": "what the tool returns"}]}`;

const USER = `{task}

## Executed trajectory so far
{trajectory}

Write exactly {tools} new tools and exactly {steps} new steps.`;

/** The version of this prompt's templates. */
export const AUGMENT_PROMPT_VERSION = versionOf('construct-augment', SYSTEM, USER);

/** How much one record is to grow. */
export interface AugmentTargets {
  steps: number;
  tools: number;
}

/** The augmentation prompt of a source record. */
export function augmentPrompt(record: SourceRecord, targets: AugmentTargets): ModelPrompt {
  const user = USER.replace('{task}', taskText(record))
    .replace('{trajectory}', trajectoryText(record) || '(no step yet)')
    .replace('{tools}', String(targets.tools))
    .replace('{steps}', String(targets.steps));
  return { promptVersion: AUGMENT_PROMPT_VERSION, system: SYSTEM, user };
}

/** One simulated step of the extension. */
export interface AugmentStep {
  thought: string;
  tool: string;
  arguments: Record<string, unknown>;
  result: string;
}

/** A usable augmentation, or why the reply cannot be used. */
export type AugmentReply =
  | { ok: true; query: string; tools: SourceTool[]; steps: AugmentStep[] }
  | { ok: false; reason: string };

function readNewTools(value: unknown, record: SourceRecord, count: number): SourceTool[] | string {
  if (!Array.isArray(value)) return 'no "new_tools" list';
  const taken = new NameSet(record.tools.map((tool) => tool.name));
  const tools: SourceTool[] = [];
  for (const item of value) {
    const read = readTool(item, taken);
    if (!read.ok) return `new tool rejected: ${read.reason}`;
    tools.push(read.tool);
  }
  return tools.length < count ? `${tools.length} new tools, ${count} asked` : tools;
}

function readStep(
  value: unknown,
  index: number,
  tools: readonly SourceTool[],
): AugmentStep | string {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return `step ${index + 1} is not an object`;
  const item = value as Record<string, unknown>;
  const tool = tools.find((entry) => entry.name === item.tool);
  if (!tool) return `step ${index + 1} calls ${JSON.stringify(item.tool)}, which is not listed`;
  const args = item.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return `step ${index + 1}: arguments are not an object`;
  const problem = argumentSchemaProblems(tool as Tool, args)[0];
  if (problem)
    return `step ${index + 1} (${tool.name}): ${problem.kind} at ${problem.path || 'arguments'}${problem.detail ? ` (${problem.detail})` : ''}`;
  const result =
    typeof item.result === 'string' ? item.result.trim() : JSON.stringify(item.result ?? '');
  if (!result || result === '""') return `step ${index + 1} has no result`;
  const thought = typeof item.thought === 'string' ? item.thought.trim() : '';
  return { thought, tool: tool.name, arguments: args as Record<string, unknown>, result };
}

/** The reply checked: an enriched query without label words, enough valid new tools and steps that call listed tools validly. */
export function readAugmentReply(
  value: Record<string, unknown>,
  record: SourceRecord,
  targets: AugmentTargets,
): AugmentReply {
  const query = typeof value.query === 'string' ? value.query.trim() : '';
  if (!query) return { ok: false, reason: 'no query' };
  if (query.replace(/\s+/g, ' ') === record.query.trim().replace(/\s+/g, ' '))
    return { ok: false, reason: 'the query is unchanged' };
  const labels = newLabelWords(query, record.query);
  if (labels.length > 0)
    return { ok: false, reason: `the query carries label words (${labels.join(', ')})` };
  const tools = readNewTools(value.new_tools, record, targets.tools);
  if (typeof tools === 'string') return { ok: false, reason: tools };
  if (!Array.isArray(value.steps)) return { ok: false, reason: 'no "steps" list' };
  const listed = [...record.tools, ...tools];
  const steps: AugmentStep[] = [];
  for (const [index, item] of value.steps.entries()) {
    const step = readStep(item, index, listed);
    if (typeof step === 'string') return { ok: false, reason: step };
    steps.push(step);
  }
  if (steps.length < targets.steps)
    return { ok: false, reason: `${steps.length} new steps, ${targets.steps} asked` };
  return { ok: true, query, tools, steps };
}
