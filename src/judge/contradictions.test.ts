import { describe, expect, it } from 'vitest';
import type { SplitName } from '../dataset/case.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Findings } from './checks/findings.js';
import {
  countContradictions,
  findContradictions,
  type ContradictionCode,
} from './contradictions.js';
import { noFindings } from './checks/findings.js';
import { makeJudgeInput } from './judge-input.fixture.js';
import type { Verdict } from './verdict.js';

const pass: Verdict = {
  kind: 'verdict',
  correct: true,
  grade: 1,
  errors: [false, false, false, false, false, false],
  reasoning: '',
  notes: [],
};
const fail: Verdict = {
  ...pass,
  correct: false,
  grade: 0.4,
  errors: [false, false, false, true, false, false],
};
const plan = (names: string[]): ParsedAnswer => ({
  kind: 'plan',
  plan: 'p',
  toolChain: names.map((name) => ({ name, arguments: {} })),
  schemaIssues: [],
});
const refusal: ParsedAnswer = { kind: 'refusal', reason: 'no photo', schemaIssues: [] };
const unparsed: ParsedAnswer = { kind: 'parse_error', message: 'no JSON' };
const brokenReference = {
  brokenToolName: 'old_api',
  replacementTool: { name: 'new_api', description: 'works' },
};

const codes = (
  split: SplitName,
  parsed: ParsedAnswer,
  findings: Partial<Findings>,
  verdict: Verdict,
) =>
  findContradictions(
    makeJudgeInput(split, { parsed, findings: noFindings(findings), reference: brokenReference }),
    verdict,
  ).map((item) => item.code);

describe('findContradictions', () => {
  const table: [
    string,
    SplitName,
    ParsedAnswer,
    Partial<Findings>,
    Verdict,
    ContradictionCode[],
  ][] = [
    ['clean correct plan', 'holistic_planning', plan(['a']), {}, pass, []],
    [
      'hallucinated tool',
      'holistic_planning',
      plan(['ghost']),
      { hallucinatedTools: { names: ['ghost'] } },
      pass,
      ['correct-with-hallucinated-tool'],
    ],
    [
      'hallucinated tool, judged incorrect',
      'holistic_planning',
      plan(['ghost']),
      { hallucinatedTools: { names: ['ghost'] } },
      fail,
      [],
    ],
    [
      'distractor used',
      'holistic_tool_extraneous',
      plan(['decoy']),
      { distractorUse: { names: ['decoy'], count: 2 } },
      pass,
      ['correct-with-distractor'],
    ],
    [
      'unparsed answer judged correct',
      'holistic_planning',
      unparsed,
      {},
      pass,
      ['correct-with-unparsed-answer'],
    ],
    [
      'refusal credited on an unparsed answer',
      'holistic_unsolvable',
      unparsed,
      {},
      { ...pass, refused: true },
      ['refusal-credited-unparsed'],
    ],
    [
      'refusal of a solvable task judged correct',
      'holistic_planning',
      refusal,
      {},
      pass,
      ['correct-refusal-on-solvable'],
    ],
    [
      'too few steps judged correct',
      'step_wise_planning',
      plan(['a']),
      {
        nextK: {
          horizon: 2,
          predicted: 1,
          toolMatches: [true],
          argumentMatches: [null],
          allToolsMatch: false,
        },
      },
      pass,
      ['correct-wrong-step-count'],
    ],
    [
      'replace, but the first call is another tool',
      'step_wise_tool_broken',
      plan(['other_api']),
      { brokenTool: { behavior: 'other', calledTool: 'other_api' } },
      { ...pass, behavior: 'replace' },
      ['broken-replace-not-replacement'],
    ],
    [
      'replace, first call is the replacement',
      'step_wise_tool_broken',
      plan(['new_api']),
      { brokenTool: { behavior: 'replace', calledTool: 'new_api' } },
      { ...pass, behavior: 'replace' },
      [],
    ],
    [
      'alter, but it is the replacement',
      'step_wise_tool_broken',
      plan(['new_api']),
      { brokenTool: { behavior: 'replace', calledTool: 'new_api' } },
      { ...pass, behavior: 'alter' },
      ['broken-alter-is-replacement'],
    ],
    [
      'recovery credited on a retry',
      'step_wise_tool_broken',
      plan(['old_api']),
      { brokenTool: { behavior: 'retry', calledTool: 'old_api' } },
      { ...pass, behavior: 'alter' },
      ['broken-pass-but-retry'],
    ],
    [
      'unsolvable pass with a plan',
      'holistic_unsolvable',
      plan(['a', 'b']),
      {},
      { ...pass, refused: true },
      ['unsolvable-pass-with-plan'],
    ],
    [
      'unsolvable pass with a plan that also refuses in words',
      'holistic_unsolvable',
      plan(['a']),
      { refusal: { refused: true, explicit: false, evidence: 'cannot' } },
      { ...pass, refused: true },
      [],
    ],
    [
      'unsolvable fail on an explicit REJECT',
      'holistic_unsolvable',
      refusal,
      { refusal: { refused: true, explicit: true, evidence: 'REJECT' } },
      { ...fail, refused: false },
      ['unsolvable-fail-on-explicit-refusal'],
    ],
  ];
  it.each(table)('%s', (_, split, parsed, findings, verdict, expected) => {
    expect(codes(split, parsed, findings, verdict)).toEqual(expected);
  });
});

describe('countContradictions', () => {
  it('counts per split and overall', () => {
    const result = countContradictions([
      {
        split: 'a',
        contradictions: [
          { code: 'correct-with-distractor', message: '' },
          { code: 'correct-with-hallucinated-tool', message: '' },
        ],
      },
      { split: 'a', contradictions: [] },
      { split: 'b', contradictions: [{ code: 'correct-with-distractor', message: '' }] },
    ]);
    expect(result.overall).toEqual({
      checked: 3,
      flagged: 2,
      byCode: { 'correct-with-distractor': 2, 'correct-with-hallucinated-tool': 1 },
    });
    expect(result.bySplit.a).toEqual({
      checked: 2,
      flagged: 1,
      byCode: { 'correct-with-distractor': 1, 'correct-with-hallucinated-tool': 1 },
    });
    expect(result.bySplit.b).toEqual({
      checked: 1,
      flagged: 1,
      byCode: { 'correct-with-distractor': 1 },
    });
  });
});
