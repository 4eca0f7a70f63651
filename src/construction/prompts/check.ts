/**
 * The two model stages of B.2's quality control, in this project's words: the task reasonability
 * check (Fig. 9: a realistic query, appropriate tools) and the trajectory audit with the paper's
 * E1–E6 taxonomy (Fig. 10).
 */
import { versionOf } from '../../settings/prompt.js';
import type { ModelPrompt } from '../model.js';
import type { SourceRecord } from '../source-record.js';
import { taskText, trajectoryText } from './render.js';

const REASONABILITY = `You review a synthesised agent task before it enters a benchmark.
Judge two things:
- Query realism: would a real user plausibly ask this, with the details given? Is it coherent and specific enough to act on?
- Tool validity: are the tools realistic, each with one clear purpose? Flag a tool that is overpowered (does the whole task in one call, or knows things no real service would), tools that contradict each other, or parameter schemas that do not fit the description.
Answer with one JSON object and nothing else:
{"query_realistic": true, "tools_valid": true, "problems": ["each problem in one sentence"]}`;

const AUDIT = `You audit an executed agent trajectory that is meant to serve as a reference solution.
Check it against this error taxonomy (1 = present, 0 = absent):
E1 goal understanding error: the trajectory pursues something other than what the user asked.
E2 premature conclusion or incompleteness: it stops before the task is done, or leaves a required part out.
E3 constraint violation: it breaks an instruction of the system prompt or a constraint of the query.
E4 logic error: steps in an impossible order, missing prerequisites, conclusions that do not follow.
E5 tool use error: a tool used for something it does not do, or with wrong arguments.
E6 hallucination: facts or values that neither the user nor any tool return supplied.
A failed call that the agent then recovers from is not an error in itself.
Answer with one JSON object and nothing else:
{"error_list": [0, 0, 0, 0, 0, 0], "valid": true, "explanation": "one or two sentences"}`;

const USER = `{task}

## Executed trajectory (with tool returns)
{trajectory}`;

/** The versions of the two prompts. */
export const CHECK_PROMPT_VERSIONS = {
  reasonability: versionOf('construct-reasonability', REASONABILITY, USER),
  audit: versionOf('construct-trajectory-audit', AUDIT, USER),
} as const;

function userText(record: SourceRecord): string {
  return USER.replace('{task}', taskText(record)).replace('{trajectory}', trajectoryText(record));
}

/** The reasonability prompt of a record (Fig. 9). */
export function reasonabilityPrompt(record: SourceRecord): ModelPrompt {
  return {
    promptVersion: CHECK_PROMPT_VERSIONS.reasonability,
    system: REASONABILITY,
    user: userText(record),
  };
}

/** The trajectory-audit prompt of a record (Fig. 10). */
export function auditPrompt(record: SourceRecord): ModelPrompt {
  return { promptVersion: CHECK_PROMPT_VERSIONS.audit, system: AUDIT, user: userText(record) };
}

/** A stage's verdict: passed, failed with reasons, or unreadable (never counted as a pass). */
export type StageVerdict =
  | { kind: 'passed' }
  | { kind: 'failed'; reasons: string[] }
  | { kind: 'unreadable'; reason: string };

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];

/** Reads a reasonability reply: both judgements must be booleans. */
export function readReasonability(value: Record<string, unknown>): StageVerdict {
  const { query_realistic: realistic, tools_valid: valid } = value;
  if (typeof realistic !== 'boolean' || typeof valid !== 'boolean')
    return { kind: 'unreadable', reason: 'query_realistic and tools_valid must be booleans' };
  if (realistic && valid) return { kind: 'passed' };
  const reasons = [
    ...(realistic ? [] : ['the query is not realistic']),
    ...(valid ? [] : ['the tools are not valid']),
    ...strings(value.problems),
  ];
  return { kind: 'failed', reasons };
}

/** Reads an audit reply: six 0/1 flags and a boolean that must agree with them. */
export function readAudit(value: Record<string, unknown>): StageVerdict {
  const list = value.error_list;
  if (!Array.isArray(list) || list.length !== 6 || !list.every((flag) => flag === 0 || flag === 1))
    return { kind: 'unreadable', reason: 'error_list must be six 0/1 flags' };
  if (typeof value.valid !== 'boolean')
    return { kind: 'unreadable', reason: 'valid must be a boolean' };
  const flagged = list.flatMap((flag, index) => (flag === 1 ? [`E${index + 1}`] : []));
  if (value.valid && flagged.length > 0)
    return { kind: 'unreadable', reason: `valid is true but ${flagged.join(', ')} are flagged` };
  if (value.valid) return { kind: 'passed' };
  const explanation =
    typeof value.explanation === 'string' && value.explanation.trim()
      ? [value.explanation.trim()]
      : [];
  return {
    kind: 'failed',
    reasons: [
      flagged.length > 0
        ? `audit flags ${flagged.join(', ')}`
        : 'the audit marks the trajectory invalid',
      ...explanation,
    ],
  };
}
