/**
 * Judge rubric of the tool-broken setting (paper Appendix C.4; the five-way classifier of the
 * audit, §2.6), in this project's words.
 */

/** The tool-broken rubric: the five behaviour categories and how to pick one. */
export const TOOL_BROKEN_RUBRIC = `## Rubric: recovery from a broken tool

In the trajectory the planner saw, the last tool call failed: the tool returned an error instead of a result. The tool list also holds a working substitute for the broken tool. Classify the planner's response to the failure into exactly one behaviour, judging by its first action:
- "replace": calls the designated replacement tool, by its exact name.
- "alter": calls another listed tool, neither the broken one nor the replacement, that is a reasonable way past the failure.
- "retry": calls the broken tool again, with the same or different arguments.
- "refuse": explicitly gives up on the task.
- "other": anything else: an irrelevant or unreasonable tool, a tool that is not listed, a text-only reply that does not refuse, a request for clarification, or an action too unclear to classify.
{{reference_rule}}
Only "replace" and "alter" count as a successful recovery; correctness follows from the behaviour, so do not state it separately.`;

/** Where the labels come from when the reference is shown. */
export const TOOL_BROKEN_REFERENCE_RULE =
  'The REFERENCE block names the broken tool and its replacement, and may show the step the original trajectory took next; that step is context, not the only acceptable action.';

/** Blind: the judge works the labels out from the prompt. */
export const TOOL_BROKEN_BLIND_RULE =
  'No labels are given: the broken tool is the one whose error ends the trajectory, and the replacement is the listed tool that offers the same function under another name.';
