/** D2: tool names the answer calls that are not listed for the case (exact spelling and case). */
import { isListedTool } from '../../dataset/tool-arguments.js';
import { predictedCalls } from './answer-calls.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';

/** D2 finding: the distinct unlisted names, in order of first use. */
export const hallucinatedToolsCheck: Check<Findings['hallucinatedTools']> = {
  code: 'D2',
  description: 'every called tool name is listed, spelled exactly',
  run(caseItem, parsed) {
    const names: string[] = [];
    for (const call of predictedCalls(parsed)) {
      if (!isListedTool(caseItem.input, call.name) && !names.includes(call.name))
        names.push(call.name);
    }
    return { names };
  },
};
