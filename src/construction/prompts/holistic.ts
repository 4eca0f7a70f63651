/**
 * Fig. 11's intent in this project's words: distil a holistic reference (explicit query, plan, tool
 * chain without observations) from a validated step-wise trajectory.
 */
import { versionOf } from '../../settings/prompt.js';
import type { ChainNode } from '../case-record.js';
import { newLabelWords } from '../labels.js';
import type { ModelPrompt } from '../model.js';
import type { SourceRecord } from '../source-record.js';
import { taskText, trajectoryText } from './render.js';

const SYSTEM = `You turn an executed agent trajectory into a holistic planning reference.
In a dialogue, the user reveals facts step by step and the agent learns others from tool returns. A holistic planner sees only one request, so:
1. Rewrite the user query so that it states, explicitly, every fact the user supplied during the trajectory that a planner needs before acting (names, ids, preferences, conditions). Do not add facts the user never gave, do not copy tool outputs into the query, and do not mention the trajectory.
2. Write the plan: a short numbered strategy, one line per step, saying what is done and why.
3. Write the tool chain: the calls a correct agent makes, in order, without observations. Leave out calls that failed or were redundant. Use only listed tools, with their exact names. For a value that comes from an earlier step's output, write a placeholder such as "<order_id from step 2>".
Answer with one JSON object and nothing else:
{"query": "...", "plan": "1. ...\\n2. ...", "tool_chain": [{"name": "tool_name", "parameter_description": {"argument": "value"}, "reason": "why this call"}]}`;

const USER = `{task}

## Executed trajectory (with tool returns)
{trajectory}`;

/** The version of this prompt's templates. */
export const HOLISTIC_PROMPT_VERSION = versionOf('construct-holistic', SYSTEM, USER);

/** The holistic prompt of a source record. */
export function holisticPrompt(record: SourceRecord): ModelPrompt {
  return {
    promptVersion: HOLISTIC_PROMPT_VERSION,
    system: SYSTEM,
    user: USER.replace('{task}', taskText(record)).replace('{trajectory}', trajectoryText(record)),
  };
}

type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A model-made tool chain, checked: a non-empty list of listed tools, each with a reason. */
export function readChain(value: unknown, toolNames: ReadonlySet<string>): Read<ChainNode[]> {
  if (!Array.isArray(value) || value.length === 0)
    return { ok: false, reason: 'tool_chain is not a non-empty list' };
  const chain: ChainNode[] = [];
  for (const [index, node] of value.entries()) {
    if (!node || typeof node !== 'object')
      return { ok: false, reason: `tool_chain[${index}] is not an object` };
    const { name, parameter_description: parameters, reason } = node as Record<string, unknown>;
    if (typeof name !== 'string' || !toolNames.has(name))
      return {
        ok: false,
        reason: `tool_chain[${index}] names an unlisted tool ${JSON.stringify(name)}`,
      };
    chain.push({
      name,
      parameter_description: parameters ?? {},
      reason: typeof reason === 'string' ? reason : '',
    });
  }
  return { ok: true, value: chain };
}

/** A plan given as text or as a list of lines. */
export function readPlan(value: unknown): string | null {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (Array.isArray(value) && value.length > 0 && value.every((line) => typeof line === 'string'))
    return value
      .map((line, index) =>
        /^\d+[.)]/.test(line.trim()) ? line.trim() : `${index + 1}. ${line.trim()}`,
      )
      .join('\n');
  return null;
}

/** The model's holistic reference, or why it cannot be used. */
export function readHolisticReply(
  value: Record<string, unknown>,
  record: SourceRecord,
): Read<{ query: string; plan: string; toolChain: ChainNode[] }> {
  const query = typeof value.query === 'string' ? value.query.trim() : '';
  if (!query) return { ok: false, reason: 'no query' };
  const labels = newLabelWords(query, record.query);
  if (labels.length > 0)
    return { ok: false, reason: `the query carries label words (${labels.join(', ')})` };
  const plan = readPlan(value.plan);
  if (!plan) return { ok: false, reason: 'no plan' };
  const chain = readChain(value.tool_chain, new Set(record.tools.map((tool) => tool.name)));
  if (!chain.ok) return chain;
  return { ok: true, value: { query, plan, toolChain: chain.value } };
}
