import { describe, expect, it } from 'vitest';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { parseHolisticAnswer, parseStepsAnswer } from '../../settings/parse-answer.js';
import { makeCase } from './make-case.fixture.js';
import { schemaCheck } from './schema.js';

const holistic = makeCase('holistic_planning');
const stepWise2 = makeCase('step_wise_planning', { input: { horizon: 2 } });
const step = (name: string | null) => ({
  thought: 't',
  toolCall: name ? { name, arguments: {} } : null,
});

describe('schemaCheck (D1)', () => {
  it.each<
    [string, ReturnType<typeof makeCase>, ParsedAnswer, { valid: boolean; issues: string[] }]
  >([
    [
      'parse failure is invalid with its message',
      holistic,
      { kind: 'parse_error', message: 'empty answer' },
      { valid: false, issues: ['empty answer'] },
    ],
    [
      'exact plan is valid',
      holistic,
      { kind: 'plan', plan: 'p', toolChain: [], schemaIssues: [] },
      { valid: true, issues: [] },
    ],
    [
      'tolerated deviations make it invalid',
      holistic,
      { kind: 'plan', plan: '', toolChain: [], schemaIssues: ['missing "plan"'] },
      { valid: false, issues: ['missing "plan"'] },
    ],
    [
      'clean refusal is valid on a holistic split',
      holistic,
      { kind: 'refusal', reason: 'no', schemaIssues: [] },
      { valid: true, issues: [] },
    ],
    [
      'clean refusal is valid on a step-wise split',
      stepWise2,
      { kind: 'refusal', reason: 'no', schemaIssues: [] },
      { valid: true, issues: [] },
    ],
    [
      'steps on a holistic split',
      holistic,
      { kind: 'steps', steps: [step('a')], schemaIssues: [] },
      { valid: false, issues: ['next steps where a holistic plan was asked for'] },
    ],
    [
      'plan on a step-wise split',
      stepWise2,
      { kind: 'plan', plan: '', toolChain: [], schemaIssues: [] },
      { valid: false, issues: ['a holistic plan where next steps were asked for'] },
    ],
    [
      'right step count',
      stepWise2,
      { kind: 'steps', steps: [step('a'), step(null)], schemaIssues: [] },
      { valid: true, issues: [] },
    ],
    [
      'too few steps',
      stepWise2,
      { kind: 'steps', steps: [step('a')], schemaIssues: [] },
      { valid: false, issues: ['expected 2 step(s), got 1'] },
    ],
    [
      'too many steps',
      stepWise2,
      { kind: 'steps', steps: [step('a'), step('b'), step('c')], schemaIssues: [] },
      { valid: false, issues: ['expected 2 step(s), got 3'] },
    ],
  ])('%s', (_name, caseItem, parsed, expected) => {
    expect(schemaCheck.run(caseItem, parsed)).toEqual(expected);
  });

  it('does not repeat the step-count issue the parser already reported', () => {
    const parsed = parseStepsAnswer(
      '{"predicted_steps": [{"thought": "x", "tool": "a", "arguments": {}}]}',
      2,
    );
    expect(schemaCheck.run(stepWise2, parsed).issues).toEqual(['expected 2 step(s), got 1']);
  });

  it('reports packaging issues of real answers', () => {
    const parsed = parseHolisticAnswer('Sure! ```json\n{"plan": "p", "tool_chain": []}\n```');
    expect(schemaCheck.run(holistic, parsed)).toEqual({
      valid: false,
      issues: ['JSON surrounded by other text or a code fence'],
    });
    expect(
      schemaCheck.run(holistic, parseHolisticAnswer('{"plan": "p", "tool_chain": []}')),
    ).toEqual({ valid: true, issues: [] });
  });
});
