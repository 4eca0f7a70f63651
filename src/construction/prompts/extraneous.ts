/** Fig. 12's intent in this project's words: tools that look related to the task but do not help solve it. */
import type { Case } from '../../dataset/case.js';
import { versionOf } from '../../settings/prompt.js';
import { referenceToolNames } from '../case-record.js';
import type { ModelPrompt } from '../model.js';
import { NameSet } from '../names.js';
import type { SourceTool } from '../source-record.js';
import { taskText } from './render.js';
import { readTool } from './tool-reply.js';

const SYSTEM = `You extend the tool bank of an agent task with additional tools for a robustness test.
Write new tools that a careful agent would recognise as not needed for this task, yet that look plausible next to the listed tools: same domain, similar vocabulary, related entities. Each must be a realistic, working tool of its own (a different operation, a neighbouring entity, another data source) — not a copy of a listed tool under another name, and not something that could stand in for a tool the task needs.
Write each description as the tool's own documentation. Never say that a tool is unnecessary, unrelated, extra or a test.
Answer with one JSON object and nothing else:
{"tools": [{"name": "snake_case_name", "description": "what it does", "parameters": {"type": "object", "properties": {...}, "required": [...]}}]}`;

const USER = `{task}

## Tools the task's solution uses
{used}

Write exactly {count} new tools.`;

/** The version of this prompt's templates. */
export const EXTRANEOUS_PROMPT_VERSION = versionOf('construct-extraneous', SYSTEM, USER);

/** The distractor prompt of a case. */
export function extraneousPrompt(parent: Case, count: number): ModelPrompt {
  const task = taskText({
    query: parent.input.query,
    system_prompt: parent.input.systemPrompt,
    tools: parent.input.tools,
  });
  const user = USER.replace('{task}', task)
    .replace('{used}', [...referenceToolNames(parent)].join(', ') || '(none)')
    .replace('{count}', String(count));
  return { promptVersion: EXTRANEOUS_PROMPT_VERSION, system: SYSTEM, user };
}

/** The model's distractors: every valid one, and why the reply falls short when it does. */
export function readDistractorReply(
  value: Record<string, unknown>,
  parent: Case,
  count: number,
): { ok: true; tools: SourceTool[] } | { ok: false; reason: string; tools: SourceTool[] } {
  if (!Array.isArray(value.tools)) return { ok: false, reason: 'no "tools" list', tools: [] };
  const taken = new NameSet([
    ...parent.input.tools.map((tool) => tool.name),
    ...referenceToolNames(parent),
  ]);
  const tools: SourceTool[] = [];
  const problems: string[] = [];
  for (const item of value.tools) {
    const read = readTool(item, taken);
    if (read.ok) tools.push(read.tool);
    else problems.push(read.reason);
  }
  if (tools.length >= count && problems.length === 0)
    return { ok: true, tools: tools.slice(0, count) };
  return {
    ok: false,
    reason: `${tools.length} of ${count} usable${problems.length ? `; rejected: ${problems.slice(0, 3).join('; ')}` : ''}`,
    tools: tools.slice(0, count),
  };
}
