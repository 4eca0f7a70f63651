import { describe, expect, it } from 'vitest';
import type { BrokenBehavior } from '../verdict.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { brokenToolCheck } from './broken-tool.js';
import { makeCase, makeTool } from './make-case.fixture.js';

const tools = ['get_quote', 'get_quote_backup', 'convert_currency', 'send_email', 'play_music'].map((name) => makeTool(name, name));
const broken = makeCase('step_wise_tool_broken', {
  input: { tools },
  reference: {
    brokenToolName: 'get_quote',
    replacementTool: makeTool('get_quote_backup', 'backup quotes'),
    groundTruthSteps: [{ toolCalls: [{ name: 'get_quote_backup', arguments: {} }] }],
    remainingSteps: [{ toolCalls: [{ name: 'convert_currency', arguments: {} }] }, { toolCalls: [{ name: 'send_email', arguments: {} }] }],
  },
});
const call = (...names: (string | null)[]): ParsedAnswer => ({
  kind: 'steps',
  steps: names.map((name) => ({ thought: 'next', toolCall: name ? { name, arguments: {} } : null })),
  schemaIssues: [],
});
const text = (thought: string): ParsedAnswer => ({ kind: 'steps', steps: [{ thought, toolCall: null }], schemaIssues: [] });

describe('brokenToolCheck (D4)', () => {
  it.each<[string, ParsedAnswer, BrokenBehavior, string | null]>([
    ['replacement tool', call('get_quote_backup'), 'replace', 'get_quote_backup'],
    ['broken tool again', call('get_quote'), 'retry', 'get_quote'],
    ['another tool the reference uses', call('convert_currency'), 'alter', 'convert_currency'],
    ['a listed tool the reference never uses', call('play_music'), 'other', 'play_music'],
    ['an unlisted tool', call('get_quote_v3'), 'other', 'get_quote_v3'],
    ['only the first action counts', call('get_quote', 'get_quote_backup'), 'retry', 'get_quote'],
    ['explicit REJECT', { kind: 'refusal', reason: 'tool down', schemaIssues: [] }, 'refuse', null],
    ['text-only step that refuses', text('The quote service is down, so I cannot complete the task.'), 'refuse', null],
    ['text-only step without refusal', text('Let me think about the quote.'), 'other', null],
    ['parse failure', { kind: 'parse_error', message: 'empty answer' }, 'other', null],
    ['first step text-only, tool later', call(null, 'get_quote_backup'), 'other', null],
  ])('%s → %s', (_name, parsed, behavior, calledTool) => {
    expect(brokenToolCheck.run(broken, parsed)).toEqual({ behavior, calledTool });
  });

  it('is null outside the tool-broken split', () => {
    expect(brokenToolCheck.run(makeCase('step_wise_planning', { input: { tools } }), call('get_quote'))).toBeNull();
  });
});
