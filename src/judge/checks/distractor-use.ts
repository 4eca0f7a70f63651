/** D3: calls to the distractor tools of a tool-extraneous case (the paper's ExtUse; summed, TC). */
import { predictedCalls } from './answer-calls.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';

/**
 * D3 finding on the *_tool_extraneous splits (null elsewhere): distinct distractor names used and
 * the number of calls to them.
 */
export const distractorUseCheck: Check<Findings['distractorUse']> = {
  code: 'D3',
  description: 'no distractor tool is called (tool-extraneous splits)',
  run(caseItem, parsed) {
    if (!caseItem.split.endsWith('_tool_extraneous')) return null;
    const distractors = new Set(caseItem.reference.extraneousToolNames);
    const calls = predictedCalls(parsed).filter((call) => distractors.has(call.name));
    return { names: [...new Set(calls.map((call) => call.name))], count: calls.length };
  },
};
