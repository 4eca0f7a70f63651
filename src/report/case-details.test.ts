import { describe, expect, it } from 'vitest';
import { caseDetailOf, capText } from './case-details.js';
import { findingLines, rowDetailOf } from './row-details.js';
import { fakeApbLine } from './fake-lines.fixture.js';

const noMedia = () => ({ index: null, note: 'none' });

describe('case details', () => {
  it('caps long texts with a visible marker', () => {
    expect(capText('abcdef', 4)).toBe('abcd\n… [2 more characters not shown]');
    expect(capText('abc', 4)).toBe('abc');
    expect(capText({ a: 1 })).toBe('{\n  "a": 1\n}');
  });

  it('reads tools in every dataset shape, and the reference', () => {
    const line = fakeApbLine({
      split: 'step_wise_tool_extraneous',
      id: 'x',
      level: 2,
      tools: [
        'lookup(city): finds a city',
        {
          type: 'function',
          function: { name: 'book', description: 'Books', parameters: { type: 'object' } },
        },
        { tool_name: 'pay', description: 'Pays' },
        { cost: 3, name: 'ship', description: 'Ships' },
        42,
      ],
    });
    const detail = caseDetailOf(line, {}, noMedia);
    expect(detail.tools.map((tool) => tool.name)).toEqual(['lookup', 'book', 'pay', 'ship']);
    expect(detail.tools[3]!.cost).toBe(3);
    expect(detail.reference.extraneousTools).toEqual(['distractor_0', 'distractor_1']);
    expect(detail.reference.toolChain).toContain('"name": "search"');
  });

  it('keeps the answer, verdict, failures and findings of a line', () => {
    const detail = rowDetailOf(
      fakeApbLine({
        split: 'holistic_planning',
        id: 'a',
        status: 'error',
        judgeStatus: 'judge_error',
      }),
      null,
    );
    expect(detail.plannerError).toBe('server 500: HTTP 500');
    expect(detail.judgeError).toBe('judge-parse-failure: unreadable reply');
    expect(detail.parsed).toBeNull();
    expect(
      findingLines({
        schema: { valid: false, issues: ['missing tool_chain'] },
        hallucinatedTools: { names: ['ghost'] },
        distractorUse: { names: ['distractor_0'], count: 2 },
        brokenTool: null,
        refusal: { refused: true, explicit: true, evidence: 'REJECT' },
        toolSet: null,
        chainOrder: null,
        arguments: { checkedCalls: 1, problems: [] },
        nextK: {
          horizon: 2,
          predicted: 2,
          toolMatches: [true, false],
          argumentMatches: [true, null],
          allToolsMatch: false,
        },
        planCost: null,
      }),
    ).toEqual([
      'Schema: missing tool_chain',
      'Tools not in the tool list: ghost',
      'Distractor tools used: 2 (distractor_0)',
      'Refusal detected (explicit): REJECT',
      'Next 2 steps: tools ✓ ✗',
    ]);
  });
});
