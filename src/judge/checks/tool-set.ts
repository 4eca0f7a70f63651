/**
 * D6: tool-set agreement with the reference, as multisets of tool names (TaskBench node F1).
 * An empty side scores 1 on its own measure: no predicted call means no extra call (precision 1),
 * an empty reference means nothing to miss (recall 1); both empty is a perfect 1.
 */
import {
  multisetDifference,
  precisionRecall,
  predictedCalls,
  referenceCalls,
  sharedCount,
} from './answer-calls.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';

/** D6 finding: precision, recall, F1, and the names missing from / extra to the answer (with repeats). */
export const toolSetCheck: Check<Findings['toolSet']> = {
  code: 'D6',
  description: 'tool-set precision, recall and F1 against the reference calls',
  run(caseItem, parsed) {
    const reference = referenceCalls(caseItem);
    if (!reference || parsed.kind === 'parse_error') return null;
    const predictedNames = predictedCalls(parsed).map((call) => call.name);
    const referenceNames = reference.map((call) => call.name);
    const shared = sharedCount(predictedNames, referenceNames);
    return {
      ...precisionRecall(shared, predictedNames.length, referenceNames.length),
      missing: multisetDifference(referenceNames, predictedNames),
      extra: multisetDifference(predictedNames, referenceNames),
    };
  },
};
