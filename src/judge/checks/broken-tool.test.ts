import { describe, expect, it } from 'vitest';
import type { BrokenBehavior } from '../verdict.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { brokenToolCheck } from './broken-tool.js';
import { makeCase, makeTool } from './make-case.fixture.js';

const tools = ['get_quote', 'get_quote_backup', 'convert_currency', 'send_email', 'play_music'].map(
  (name) => makeTool(name, name),
);
const broken = makeCase('step_wise_tool_broken', {
  input: { tools },
  reference: {
    brokenToolName: 'get_quote',
    replacementTool: makeTool('get_quote_backup', 'backup quotes'),
    groundTruthSteps: [{ toolCalls: [{ name: 'get_quote_backup', arguments: {} }] }],
    remainingSteps: [
      { toolCalls: [{ name: 'convert_currency', arguments: {} }] },
      { toolCalls: [{ name: 'send_email', arguments: {} }] },
    ],
  },
});
const call = (...names: (string | null)[]): ParsedAnswer => ({
  kind: 'steps',
  steps: names.map((name) => ({
    thought: 'next',
    toolCall: name ? { name, arguments: {} } : null,
  })),
  schemaIssues: [],
});
const text = (thought: string): ParsedAnswer => ({
  kind: 'steps',
  steps: [{ thought, toolCall: null }],
  schemaIssues: [],
});

describe('brokenToolCheck (D4)', () => {
  it.each<[string, ParsedAnswer, BrokenBehavior, string | null]>([
    ['replacement tool', call('get_quote_backup'), 'replace', 'get_quote_backup'],
    ['broken tool again', call('get_quote'), 'retry', 'get_quote'],
    [
      'another tool the reference uses, standing in for nothing',
      call('convert_currency'),
      'other',
      'convert_currency',
    ],
    ['a listed tool the reference never uses', call('play_music'), 'other', 'play_music'],
    ['an unlisted tool', call('get_quote_v3'), 'other', 'get_quote_v3'],
    ['only the first action counts', call('get_quote', 'get_quote_backup'), 'retry', 'get_quote'],
    ['explicit REJECT', { kind: 'refusal', reason: 'tool down', schemaIssues: [] }, 'refuse', null],
    [
      'text-only step that refuses',
      text('The quote service is down, so I cannot complete the task.'),
      'refuse',
      null,
    ],
    ['text-only step without refusal', text('Let me think about the quote.'), 'other', null],
    ['parse failure', { kind: 'parse_error', message: 'empty answer' }, 'other', null],
    ['first step text-only, tool later', call(null, 'get_quote_backup'), 'other', null],
  ])('%s → %s', (_name, parsed, behavior, calledTool) => {
    expect(brokenToolCheck.run(broken, parsed)).toEqual({ behavior, calledTool });
  });

  it('is null outside the tool-broken split', () => {
    expect(
      brokenToolCheck.run(makeCase('step_wise_planning', { input: { tools } }), call('get_quote')),
    ).toBeNull();
  });
});

describe('brokenToolCheck (D4): recovery needs more than a name', () => {
  const quote = (name: string, properties: string[]) => makeTool(name, name, properties);
  const withPrefix = makeCase('step_wise_tool_broken', {
    input: {
      query: 'Quote order #W42 in euros.',
      tools: [
        quote('get_quote', ['order_id']),
        quote('get_quote_backup', ['order_id']),
        quote('fetch_quote_feed', ['order_id']),
        quote('cancel_quote', ['order_id']),
        quote('get_order', ['order_id']),
      ],
      trajectoryPrefix: [
        {
          role: 'assistant',
          text: '',
          toolCalls: [{ name: 'get_quote', arguments: { order_id: '#W42' } }],
        },
        { role: 'tool', text: 'HTTP 503', toolCalls: [] },
      ],
    },
    reference: {
      brokenToolName: 'get_quote',
      replacementTool: quote('get_quote_backup', ['order_id']),
    },
  });
  const first = (name: string, args: Record<string, unknown>): ParsedAnswer => ({
    kind: 'steps',
    steps: [{ thought: '', toolCall: { name, arguments: args } }],
    schemaIssues: [],
  });
  it.each<[string, ParsedAnswer, BrokenBehavior]>([
    [
      "the replacement with the failed call's value",
      first('get_quote_backup', { order_id: '#W42' }),
      'replace',
    ],
    [
      'the replacement with another order',
      first('get_quote_backup', { order_id: '#W24' }),
      'other',
    ],
    [
      "a read carrying the broken tool's purpose and input",
      first('fetch_quote_feed', { order_id: '#W42' }),
      'alter',
    ],
    [
      'a read fed by an id nobody produced',
      first('fetch_quote_feed', { order_id: '#W99' }),
      'other',
    ],
    ['a read that does not carry the purpose', first('get_order', { order_id: '#W42' }), 'other'],
    ['a write is no alternative', first('cancel_quote', { order_id: '#W42' }), 'other'],
  ])('%s → %s', (_name, parsed, behavior) => {
    expect(brokenToolCheck.run(withPrefix, parsed)?.behavior).toBe(behavior);
  });
});
