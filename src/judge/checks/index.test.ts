import { describe, expect, it } from 'vitest';
import { parseHolisticAnswer, parseStepsAnswer } from '../../settings/parse-answer.js';
import { noFindings } from './findings.js';
import { CHECKS, runChecks } from './index.js';
import { makeCase, makeTool } from './make-case.fixture.js';

describe('CHECKS', () => {
  it('covers D1–D12 once each', () => {
    expect(Object.values(CHECKS).map((check) => check.code)).toEqual([
      'D1',
      'D2',
      'D3',
      'D4',
      'D5',
      'D6',
      'D7',
      'D8',
      'D9',
      'D10',
      'D11',
      'D12',
    ]);
  });
});

describe('runChecks', () => {
  const tools = [
    makeTool('search', 'search', ['q']),
    makeTool('book', 'book', ['id']),
    makeTool('lookup', 'distractor'),
  ];
  const holistic = makeCase('holistic_tool_extraneous', {
    input: { tools },
    reference: {
      toolChain: [
        { name: 'search', arguments: { q: 'x' } },
        { name: 'book', arguments: { id: '<id from step 1>' } },
      ],
      extraneousToolNames: ['lookup'],
    },
  });

  it('fills every field for a readable holistic answer', () => {
    const parsed = parseHolisticAnswer(
      '{"plan": "1. search 2. book", "tool_chain": [{"name": "search", "parameter_description": {"q": "x"}, "reason": "r"}, {"name": "lookup", "parameter_description": {}, "reason": "r"}, {"name": "Book", "parameter_description": {"id": "<id from step 1>"}, "reason": "r"}]}',
    );
    const findings = runChecks(holistic, parsed);
    expect(findings.schema).toEqual({ valid: true, issues: [] });
    expect(findings.hallucinatedTools).toEqual({ names: ['Book'] });
    expect(findings.distractorUse).toEqual({ names: ['lookup'], count: 1 });
    expect(findings.brokenTool).toBeNull();
    expect(findings.refusal.refused).toBe(false);
    expect(findings.toolSet).toMatchObject({ missing: ['book'], extra: ['lookup', 'Book'] });
    expect(findings.chainOrder).toMatchObject({ lcs: 1, lcsRatio: 0.5 });
    expect(findings.arguments).toEqual({ checkedCalls: 2, problems: [] });
    expect(findings.nextK).toBeNull();
    expect(findings.planCost).toEqual({
      predictedSteps: 3,
      referenceSteps: 2,
      predictedCost: null,
      referenceCost: null,
    });
  });

  it('keeps a parse failure apart: invalid, not a refusal, nothing compared', () => {
    const stepWise = makeCase('step_wise_planning', {
      input: { tools },
      reference: { groundTruthSteps: [{ toolCalls: [{ name: 'search', arguments: {} }] }] },
    });
    const findings = runChecks(stepWise, parseStepsAnswer('I cannot complete this task.', 1));
    expect(findings).toEqual(
      noFindings({ schema: { valid: false, issues: ['no JSON object found in the answer'] } }),
    );
  });
});

describe('runChecks on hostile answers', () => {
  const tools = [makeTool('search', 'search', ['q'])];
  const holistic = makeCase('holistic_planning', {
    input: { tools },
    reference: { toolChain: [{ name: 'search', arguments: { q: 'x' } }] },
  });
  const stepWise = makeCase('step_wise_tool_broken', {
    input: { tools, horizon: 1 },
    reference: {
      brokenToolName: 'search',
      replacementTool: makeTool('search2', 's'),
      groundTruthSteps: [],
    },
  });

  it.each<[string, string, { refused: boolean; hallucinated: string[]; schemaValid: boolean }]>([
    [
      'tool chain is not a list',
      '{"plan": "p", "tool_chain": {"name": "search"}}',
      { refused: false, hallucinated: [], schemaValid: false },
    ],
    [
      'chain of bare strings',
      '{"plan": "p", "tool_chain": ["search", "rm -rf /"]}',
      { refused: false, hallucinated: ['rm -rf /'], schemaValid: true },
    ],
    [
      'prototype-shaped names',
      '{"plan": "p", "tool_chain": [{"name": "__proto__"}, {"name": "constructor"}, {"name": "toString"}]}',
      { refused: false, hallucinated: ['__proto__', 'constructor', 'toString'], schemaValid: true },
    ],
    [
      'REJECT smuggled in the plan text with tools',
      '{"plan": "REJECT", "tool_chain": [{"name": "search", "parameter_description": {"q": "x"}}]}',
      { refused: false, hallucinated: [], schemaValid: true },
    ],
    [
      'arguments as a JSON string',
      '{"plan": "p", "tool_chain": [{"name": "search", "parameter_description": "{\\"q\\": 1}"}]}',
      { refused: false, hallucinated: [], schemaValid: true },
    ],
    [
      'deeply nested junk',
      `{"plan": "p", "tool_chain": [{"name": "search", "parameter_description": {"q": ${'['.repeat(200)}${']'.repeat(200)}}}]}`,
      { refused: false, hallucinated: [], schemaValid: true },
    ],
    [
      'only prose',
      'Sorry, I cannot complete this task.',
      { refused: false, hallucinated: [], schemaValid: false },
    ],
  ])('%s', (_name, text, expected) => {
    const parsed = parseHolisticAnswer(text);
    const findings = runChecks(holistic, parsed);
    expect({
      refused: findings.refusal.refused,
      hallucinated: findings.hallucinatedTools.names,
      schemaValid: findings.schema.valid,
    }).toEqual(expected);
  });

  it('flags a number given as a string argument', () => {
    const findings = runChecks(
      holistic,
      parseHolisticAnswer(
        '{"plan": "p", "tool_chain": [{"name": "search", "parameter_description": "{\\"q\\": 1}"}]}',
      ),
    );
    expect(findings.arguments.problems.map((problem) => problem.kind)).toEqual(['wrong-type']);
  });

  it('classifies an empty step list as a parse failure, behaviour other', () => {
    const findings = runChecks(stepWise, parseStepsAnswer('{"predicted_steps": []}', 1));
    expect(findings.brokenTool).toEqual({ behavior: 'other', calledTool: null });
    expect(findings.refusal.refused).toBe(false);
  });
});
