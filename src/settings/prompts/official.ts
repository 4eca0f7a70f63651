/**
 * The released runner's prompt shape (`--protocol official`): a generic system message and one
 * JSON payload. Reproduced for comparability, with its leaks removed: no id, source, category,
 * unsolvable type, distractor names, broken tool or replacement, and no per-split announcement.
 */

export const OFFICIAL_SYSTEM =
  'You are a participant in an agent planning benchmark. Reply with JSON only. Use only the tools listed in the payload. Do not execute anything: plan.';

export const OFFICIAL_HOLISTIC_INSTRUCTION =
  'Write a plan and a tool chain for the query: {"plan": string, "tool_chain": [{"name": string, "parameter_description": object, "reason": string}]}.';

export const OFFICIAL_STEP_WISE_INSTRUCTION =
  'Given the trajectory prefix, predict the next {{k}} step(s): {"predicted_steps": [{"thought": string, "action": string, "tool": string or null, "arguments": object}]}.';

export const OFFICIAL_REFUSAL_INSTRUCTION =
  ' If the task cannot be done, return {"status": "REJECT", "reason": string} instead.';
