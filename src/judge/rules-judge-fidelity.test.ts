/**
 * The rules of issue 11 (rules@2): state changes, argument values, sound reorders, stand-ins,
 * tool-broken recovery, reasoned refusals, grades.
 */
import { describe, expect, it } from 'vitest';
import type { Case, SplitName, Tool } from '../dataset/case.js';
import { SETTINGS } from '../settings/index.js';
import { runChecks } from './checks/index.js';
import { makeCase, makeTool } from './checks/make-case.fixture.js';
import { rulesVerdict } from './rules-judge.js';
import type { Verdict } from './verdict.js';

const tools: Tool[] = [
  makeTool('find_user_id_by_name_zip', 'Find a user id by name and zip.', ['name', 'zip']),
  makeTool('find_user_id_by_email', 'Find a user id by email.', ['email']),
  makeTool('get_order_details', 'Get the details of an order.', ['order_id']),
  makeTool('get_user_details', 'Get the details of a user.', ['user_id']),
  makeTool('cancel_pending_order', 'Cancel a pending order.', ['order_id', 'reason']),
  makeTool('return_delivered_order_items', 'Return items of a delivered order.', [
    'order_id',
    'payment_method_id',
  ]),
  makeTool('calculate', 'Calculate an arithmetic expression.', ['expression']),
  {
    name: 'book_trip',
    description: 'Book a trip.',
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        'abcdefghij'.split('').map((key) => [key, { type: 'string' }]),
      ),
      required: 'abcdefghij'.split(''),
    },
  },
];
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
const query =
  'Cancel my pending order #W1234567, I ordered it by mistake. I am Ana Lima, zip 10001, email ana@example.com, user ana_lima_1234.';
const holistic = makeCase('holistic_planning', {
  input: { query, tools },
  reference: {
    toolChain: [
      call('find_user_id_by_name_zip', { name: 'Ana Lima', zip: '10001' }),
      call('get_order_details', { order_id: '#W1234567' }),
      call('cancel_pending_order', { order_id: '#W1234567', reason: 'ordered by mistake' }),
    ],
  },
});
const node = (name: string, args: Record<string, unknown>) => ({
  name,
  parameter_description: args,
  reason: 'r',
});
const plan = (...nodes: ReturnType<typeof node>[]) =>
  JSON.stringify({ plan: 'p', tool_chain: nodes });
const find = node('find_user_id_by_name_zip', { name: 'Ana Lima', zip: '10001' });
const read = node('get_order_details', { order_id: '#W1234567' });
const cancel = node('cancel_pending_order', {
  order_id: '#W1234567',
  reason: 'ordered by mistake',
});

function judge(caseItem: Case, text: string, truncated = false): Verdict {
  const parsed = SETTINGS[caseItem.split].parseAnswer(text, caseItem.input);
  return rulesVerdict(caseItem.split, parsed, runChecks(caseItem, parsed, { text, truncated }));
}
const summary = (verdict: Verdict) => ({
  correct: verdict.correct,
  grade: verdict.grade,
  flags: verdict.errors.flatMap((on, index) => (on ? [`E${index + 1}`] : [])),
});

describe('holistic: state changes, values, order, stand-ins', () => {
  it.each<[string, string, ReturnType<typeof summary>]>([
    ['the reference chain', plan(find, read, cancel), { correct: true, grade: 1, flags: [] }],
    [
      'an extra read-only lookup',
      plan(find, node('get_user_details', { user_id: 'ana_lima_1234' }), read, cancel),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'an unrequested state change',
      plan(
        find,
        read,
        cancel,
        node('return_delivered_order_items', {
          order_id: '#W1234567',
          payment_method_id: '<card from step 2>',
        }),
      ),
      { correct: false, grade: 0.6, flags: ['E3'] },
    ],
    [
      'a value that contradicts the query',
      plan(
        find,
        read,
        node('cancel_pending_order', { order_id: '#W1234567', reason: 'no longer needed' }),
      ),
      { correct: false, grade: 0.6, flags: ['E5'] },
    ],
    [
      'an invented identifier',
      plan(find, node('get_order_details', { order_id: '#W7654321' }), cancel),
      { correct: false, grade: 0.6, flags: ['E6'] },
    ],
    [
      'normalised values agree',
      plan(
        node('find_user_id_by_name_zip', { name: ' ana  LIMA ', zip: '10001 ' }),
        read,
        node('cancel_pending_order', { order_id: '#w1234567', reason: 'Ordered by mistake' }),
      ),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'two independent reads swapped',
      plan(read, find, cancel),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'a write moved before the read it follows',
      plan(find, cancel, read),
      { correct: false, grade: 0.6, flags: ['E4'] },
    ],
    [
      'a sibling lookup stands in (by email for by name and zip)',
      plan(node('find_user_id_by_email', { email: 'ana@example.com' }), read, cancel),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'a value used before the step that yields it',
      plan(node('get_order_details', { order_id: '<order id from step 2>' }), find, cancel),
      { correct: false, grade: 0.6, flags: ['E6'] },
    ],
    [
      'refusal ranks below a partial answer',
      '{"status": "REJECT", "reason": "no"}',
      { correct: false, grade: 0, flags: ['E2'] },
    ],
    [
      'nothing shared ranks below a partial answer',
      plan(node('calculate', { expression: '1+1' })),
      { correct: false, grade: 0, flags: ['E1', 'E2'] },
    ],
  ])('%s', (_name, text, expected) => {
    expect(summary(judge(holistic, text))).toEqual(expected);
  });

  it('grades are monotone: refusal and nothing shared < mostly wrong < several flaws < one flaw < one trivial issue < correct', () => {
    const badCancel = node('cancel_pending_order', {
      order_id: '#W7654321',
      reason: 'no longer needed',
    });
    const grades = [
      '{"status": "REJECT", "reason": "no"}',
      plan(node('calculate', { expression: '1+1' })),
      plan(find, badCancel),
      plan(
        find,
        read,
        badCancel,
        node('return_delivered_order_items', {
          order_id: '#W1234567',
          payment_method_id: '<card>',
        }),
      ),
      plan(find, read),
      plan(
        find,
        read,
        node('cancel_pending_order', {
          order_id: '#W1234567',
          reason: 'ordered by mistake',
          note: 'x',
        }),
      ),
      plan(find, read, cancel),
    ].map((text) => judge(holistic, text).grade);
    expect(grades).toEqual([0, 0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('a key call with nine of ten required arguments missing is a key flaw (0.6), not a minor one', () => {
    const booking = makeCase('holistic_planning', {
      input: { query: 'Book the trip.', tools },
      reference: {
        toolChain: [
          call(
            'book_trip',
            Object.fromEntries('abcdefghij'.split('').map((key) => [key, '<from the user>'])),
          ),
        ],
      },
    });
    expect(summary(judge(booking, plan(node('book_trip', { a: 'x' }))))).toEqual({
      correct: false,
      grade: 0.6,
      flags: ['E5'],
    });
  });
});

describe('step-wise: positions, values, sound reorders', () => {
  const prefix = [
    {
      role: 'assistant' as const,
      text: '',
      toolCalls: [call('find_user_id_by_email', { email: 'ana@example.com' })],
    },
    {
      role: 'tool' as const,
      text: '{"user_id": "ana_lima_1234", "orders": ["#W1234567", "#W7777777"]}',
      toolCalls: [],
    },
  ];
  const stepCase = (
    truth: ReturnType<typeof call>[],
    remaining: ReturnType<typeof call>[],
    horizon: 1 | 2 = 1,
  ) =>
    makeCase('step_wise_planning', {
      input: { query, tools, horizon, trajectoryPrefix: prefix },
      reference: {
        groundTruthSteps: truth.map((toolCall) => ({ toolCalls: [toolCall] })),
        remainingSteps: [...truth, ...remaining].map((toolCall) => ({ toolCalls: [toolCall] })),
      },
    });
  const steps = (...list: [string | null, Record<string, unknown>][]) =>
    JSON.stringify({
      predicted_steps: list.map(([tool, args]) => ({ thought: 't', tool, arguments: args })),
    });
  const orders = stepCase(
    [call('get_order_details', { order_id: '#W1234567' })],
    [
      call('get_order_details', { order_id: '#W7777777' }),
      call('cancel_pending_order', { order_id: '#W1234567', reason: 'ordered by mistake' }),
    ],
  );
  const math = stepCase([call('calculate', { expression: '256.67-226.49' })], []);

  it.each<[string, Case, string, ReturnType<typeof summary>]>([
    [
      'the ground truth',
      orders,
      steps(['get_order_details', { order_id: '#W1234567' }]),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'the other order first: a sound reorder',
      orders,
      steps(['get_order_details', { order_id: '#W7777777' }]),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'a later write taken early is not a sound reorder',
      orders,
      steps(['cancel_pending_order', { order_id: '#W1234567', reason: 'ordered by mistake' }]),
      { correct: false, grade: 0.2, flags: ['E4'] },
    ],
    [
      'an order id the trajectory never showed',
      orders,
      steps(['get_order_details', { order_id: '#W1234576' }]),
      { correct: false, grade: 0.2, flags: ['E6'] },
    ],
    [
      'a placeholder where the value is known',
      orders,
      steps(['get_order_details', { order_id: '<the order id>' }]),
      { correct: false, grade: 0.6, flags: ['E5'] },
    ],
    [
      'an unknown optional argument only',
      orders,
      steps(['get_order_details', { order_id: '#W1234567', verbose: 'yes' }]),
      { correct: false, grade: 0.8, flags: ['E5'] },
    ],
    [
      'arithmetic spacing',
      math,
      steps(['calculate', { expression: '256.67 - 226.49' }]),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'a different expression',
      math,
      steps(['calculate', { expression: '256.67 - 226.94' }]),
      { correct: false, grade: 0.6, flags: ['E5'] },
    ],
    [
      'a refusal ranks below an answer that matches nothing',
      orders,
      '{"status": "REJECT", "reason": "no"}',
      { correct: false, grade: 0, flags: ['E2'] },
    ],
  ])('%s', (_name, caseItem, text, expected) => {
    expect(summary(judge(caseItem, text))).toEqual(expected);
  });
});

describe('tool-broken: recovery needs sound values', () => {
  const broken = makeCase('step_wise_tool_broken', {
    input: {
      query,
      tools: [
        ...tools,
        makeTool('get_order_details_v2', '[Replacement service] Get the details of an order.', [
          'order_id',
        ]),
        makeTool('fetch_order_record', 'Fetch the full record of an order.', ['order_id']),
      ],
      horizon: 1,
      trajectoryPrefix: [
        {
          role: 'assistant',
          text: '',
          toolCalls: [call('get_order_details', { order_id: '#W1234567' })],
        },
        { role: 'tool', text: 'HTTP 503', toolCalls: [] },
      ],
    },
    reference: {
      brokenToolName: 'get_order_details',
      replacementTool: makeTool('get_order_details_v2', 'replacement', ['order_id']),
      groundTruthSteps: [{ toolCalls: [call('get_order_details_v2', { order_id: '#W1234567' })] }],
    },
  });
  const first = (name: string, args: Record<string, unknown>) =>
    JSON.stringify({ predicted_steps: [{ thought: 't', tool: name, arguments: args }] });
  it.each<[string, string, string, boolean]>([
    [
      "the replacement with the failed call's values",
      first('get_order_details_v2', { order_id: '#W1234567' }),
      'replace',
      true,
    ],
    [
      'the replacement with a contradicting value',
      first('get_order_details_v2', { order_id: 'tau2-bench' }),
      'other',
      false,
    ],
    [
      'the replacement without its required argument',
      first('get_order_details_v2', {}),
      'other',
      false,
    ],
    [
      "a read that stands in, fed by the failed call's values",
      first('fetch_order_record', { order_id: '#W1234567', fields: 'details' }),
      'alter',
      true,
    ],
    [
      "a read that does not carry the broken tool's purpose",
      first('get_user_details', { user_id: 'ana_lima_1234' }),
      'other',
      false,
    ],
    [
      'a write is never an alternative',
      first('cancel_pending_order', { order_id: '#W1234567', reason: 'ordered by mistake' }),
      'other',
      false,
    ],
    ['retry', first('get_order_details', { order_id: '#W1234567' }), 'retry', false],
  ])('%s', (_name, text, behavior, correct) => {
    const verdict = judge(broken, text);
    expect({ behavior: verdict.behavior, correct: verdict.correct }).toEqual({ behavior, correct });
  });
});

describe('unsolvable: a refusal counts when it is explicit, or reasoned prose', () => {
  const unsolvable = (type: 'tool_removal' | 'information_missing'): Case =>
    makeCase('holistic_unsolvable' as SplitName, {
      input: { query, tools },
      reference: {
        unsolvableType: type,
        plan: 'Needs `modify_pending_order_items`, which is not listed.',
      },
    });
  it.each<[string, string, boolean, boolean]>([
    [
      'JSON REJECT naming the missing tool',
      '{"status": "REJECT", "reason": "modify_pending_order_items is not available"}',
      true,
      false,
    ],
    [
      'JSON REJECT naming a missing capability',
      '{"status": "REJECT", "reason": "No listed tool can change the items of an order."}',
      true,
      false,
    ],
    [
      'JSON REJECT (C.6: an explicit refusal passes; the rules judge does not weigh its reason)',
      '{"status": "REJECT", "reason": ""}',
      true,
      false,
    ],
    [
      'a reasoned prose refusal',
      'I cannot complete this request: none of the available tools can change the items of a pending order.',
      true,
      false,
    ],
    ['"asdf"', 'asdf', false, false],
    ['empty', '', false, false],
    [
      'a refusal without a reason',
      'I am sorry but I really cannot complete this request for you today.',
      false,
      false,
    ],
    [
      'cut off by the token limit',
      'I cannot complete this request: none of the available tools can change the',
      false,
      true,
    ],
  ])('%s', (_name, text, correct, truncated) => {
    expect(judge(unsolvable('tool_removal'), text, truncated).correct).toBe(correct);
  });
});
