/** D1: the answer parsed and has the split's output shape; parse failures stay apart from model errors. */
import type { Findings } from './findings.js';
import type { Check } from './check.js';

/** D1 finding: packaging and shape issues the parser reported, plus a wrong step count for step-wise splits. */
export const schemaCheck: Check<Findings['schema']> = {
  code: 'D1',
  description: "the answer parses and matches the split's output schema",
  run(caseItem, parsed) {
    if (parsed.kind === 'parse_error') return { valid: false, issues: [parsed.message] };
    const issues = [...parsed.schemaIssues];
    const regime = caseItem.input.regime;
    // A refusal is an allowed shape in every split; only its packaging can be wrong.
    if (parsed.kind === 'plan' && regime === 'Step-wise')
      issues.push('a holistic plan where next steps were asked for');
    if (parsed.kind === 'steps' && regime === 'Holistic')
      issues.push('next steps where a holistic plan was asked for');
    if (parsed.kind === 'steps' && regime === 'Step-wise') {
      const horizon = caseItem.input.horizon ?? 1;
      const message = `expected ${horizon} step(s), got ${parsed.steps.length}`;
      // The step-wise parser already reports this with the same words; do not repeat it.
      if (parsed.steps.length !== horizon && !issues.includes(message)) issues.push(message);
    }
    return { valid: issues.length === 0, issues };
  },
};
