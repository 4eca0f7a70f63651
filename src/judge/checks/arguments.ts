/**
 * D8: argument checks against each called tool's JSON schema, nested (the shared validator of
 * `dataset/tool-arguments.ts`): an object, required present, no unknown names, JSON types, enum
 * values, array items and nested objects. A placeholder for an earlier step's output satisfies
 * any type and any enum (data flow in a plan).
 */
import type { Tool } from '../../dataset/case.js';
import { isPlaceholder } from '../../dataset/placeholders.js';
import { argumentSchemaProblems, hasArgumentSchema } from '../../dataset/tool-arguments.js';
import { predictedCalls } from './answer-calls.js';
import type { Check } from './check.js';
import type { ArgumentProblem, Findings } from './findings.js';

/** The problems of one call's arguments against one tool's schema; `step` is the call's 1-based position. */
export function argumentProblems(tool: Tool, args: unknown, step: number): ArgumentProblem[] {
  return argumentSchemaProblems(tool, args, { skip: isPlaceholder }).map(
    ({ kind, path, detail }) =>
      detail === undefined
        ? { step, tool: tool.name, kind, argument: path }
        : { step, tool: tool.name, kind, argument: path, detail },
  );
}

/** D8 finding: problems of every call to a listed tool that has a JSON schema. */
export const argumentsCheck: Check<Findings['arguments']> = {
  code: 'D8',
  description:
    "arguments match the called tool's JSON schema (required, unknown, types, enums, nested)",
  run(caseItem, parsed) {
    const tools = new Map(caseItem.input.tools.map((tool) => [tool.name, tool]));
    let checkedCalls = 0;
    const problems: ArgumentProblem[] = [];
    predictedCalls(parsed).forEach((call, index) => {
      const tool = tools.get(call.name);
      if (!tool || !hasArgumentSchema(tool)) return;
      checkedCalls += 1;
      problems.push(...argumentProblems(tool, call.arguments, index + 1));
    });
    return { checkedCalls, problems };
  },
};
