import { describe, expect, it } from 'vitest';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { parseHolisticAnswer } from '../../settings/parse-answer.js';
import { makeCase } from './make-case.fixture.js';
import { refusalCheck, refusalLanguage } from './refusal.js';

const caseItem = makeCase('holistic_unsolvable');
const textPlan = (plan: string): ParsedAnswer => ({
  kind: 'plan',
  plan,
  toolChain: [],
  schemaIssues: [],
});
const textSteps = (...thoughts: string[]): ParsedAnswer => ({
  kind: 'steps',
  steps: thoughts.map((thought) => ({ thought, toolCall: null })),
  schemaIssues: [],
});

describe('refusalLanguage', () => {
  it.each<[string, boolean]>([
    ['This task cannot be completed with the listed tools.', true],
    ['I cannot complete this request because the attachment is missing.', true],
    ["I can't see the image you mention, so I can't determine the price.", true],
    ['I am unable to proceed without the account number.', true],
    ['It is not possible to satisfy both the budget and the five-star requirement.', true],
    ['The request is impossible: the constraints are contradictory.', true],
    ['Missing information: the departure date was never given.', true],
    ['There is no tool that can send a fax.', true],
    ['None of the available tools can translate audio.', true],
    ['REJECT: the file is not attached.', true],
    // contingencies and ordinary plans are not refusals
    ['1. Search the catalogue. 2. If the item is unavailable, notify the user.', false],
    ['If the search is unable to complete, retry once.', false],
    ['When information is missing, ask the user for it.', false],
    ['Otherwise, report that it cannot be completed.', false],
    ['No tool call is needed; the answer is 42.', false],
    ['The capital of France is Paris.', false],
    ['I can then book the cheapest flight.', false],
    ['Unavailable seats are skipped.', false],
    ['', false],
  ])('%s → %s', (text, refused) => {
    expect(refusalLanguage(text) !== null).toBe(refused);
  });
});

describe('refusalCheck (D5)', () => {
  it.each<[string, ParsedAnswer, { refused: boolean; explicit: boolean; evidence: string | null }]>(
    [
      [
        'explicit REJECT',
        { kind: 'refusal', reason: 'the tool was removed', schemaIssues: [] },
        { refused: true, explicit: true, evidence: 'the tool was removed' },
      ],
      [
        'explicit REJECT without reason',
        { kind: 'refusal', reason: '  ', schemaIssues: [] },
        { refused: true, explicit: true, evidence: 'REJECT' },
      ],
      [
        'parse failure is never a refusal',
        { kind: 'parse_error', message: 'I cannot complete this task' },
        { refused: false, explicit: false, evidence: null },
      ],
      [
        'text-only plan that refuses',
        textPlan('This request cannot be completed: no booking tool exists.'),
        {
          refused: true,
          explicit: false,
          evidence: 'This request cannot be completed: no booking tool exists.',
        },
      ],
      [
        'text-only plan with a contingency',
        textPlan('1. Check stock. 2. If the item is unavailable, notify the user.'),
        { refused: false, explicit: false, evidence: null },
      ],
      [
        'a plan that calls tools is acting, whatever it says',
        {
          kind: 'plan',
          plan: 'I cannot complete this fully, but: 1. search',
          toolChain: [{ name: 'search', arguments: {} }],
          schemaIssues: [],
        },
        { refused: false, explicit: false, evidence: null },
      ],
      [
        'text-only steps that refuse',
        textSteps('I am unable to continue without the password.'),
        {
          refused: true,
          explicit: false,
          evidence: 'I am unable to continue without the password.',
        },
      ],
      [
        'a final-answer step is not a refusal',
        textSteps('All data collected; answer: 3 rooms.'),
        { refused: false, explicit: false, evidence: null },
      ],
      [
        'steps with a tool call are acting',
        {
          kind: 'steps',
          steps: [
            { thought: 'I cannot complete this', toolCall: null },
            { thought: '', toolCall: { name: 'search', arguments: {} } },
          ],
          schemaIssues: [],
        },
        { refused: false, explicit: false, evidence: null },
      ],
    ],
  )('%s', (_name, parsed, expected) => {
    expect(refusalCheck.run(caseItem, parsed)).toEqual(expected);
  });

  it('reads real answers through the parser', () => {
    expect(
      refusalCheck.run(caseItem, parseHolisticAnswer('{"status": "REJECT", "reason": "no image"}'))
        .explicit,
    ).toBe(true);
    expect(refusalCheck.run(caseItem, parseHolisticAnswer('I cannot do this.')).refused).toBe(
      false,
    );
  });
});
