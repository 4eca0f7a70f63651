/** tau2's reward pieces on hand-built inputs: COMMUNICATE's matching, ACTION's compare_args, the basis product. */
import { describe, expect, it } from 'vitest';
import type { ExecMessage, ReferenceAction } from './environment.js';
import { actionMatches, communicateChecks } from './reward.js';

const say = (content: string | null): ExecMessage => ({ role: 'assistant', content });

describe('communicateChecks', () => {
  it('finds each string lower-cased in an agent message with commas removed, and only in agent text', () => {
    const messages: ExecMessage[] = [
      say('Your refund is $1,628.00.'),
      { role: 'user', content: 'I expected 327' },
      { role: 'tool', tool_call_id: 'c', name: 't', content: '1000', error: false },
      say('   '),
      say(null),
      say('Total: FLIGHT HAT001'),
    ];
    expect(
      communicateChecks(['1628', '327', '1000', 'hat001', '1,628'], messages).map(
        (check) => check.met,
      ),
    ).toEqual([true, false, false, true, false]);
  });
});

describe('actionMatches', () => {
  const action = (compareArgs: string[] | null): ReferenceAction => ({
    actionId: 'a',
    requestor: 'assistant',
    name: 'cancel',
    arguments: { id: 'X', reason: 'r', amount: 5 },
    compareArgs,
  });
  it('compares every argument the agent sent when compare_args is null', () => {
    expect(
      actionMatches(action(null), {
        name: 'cancel',
        arguments: { id: 'X', reason: 'r', amount: 5.0 },
      }),
    ).toBe(true);
    expect(actionMatches(action(null), { name: 'cancel', arguments: { id: 'X' } })).toBe(true);
    expect(actionMatches(action(null), { name: 'cancel', arguments: {} })).toBe(true);
    expect(actionMatches(action(null), { name: 'cancel', arguments: { id: 'Y' } })).toBe(false);
    expect(actionMatches(action(null), { name: 'cancel', arguments: { id: 'X', extra: 1 } })).toBe(
      false,
    );
  });
  it('compares only compare_args when given, and never matches another name or non-object arguments', () => {
    expect(
      actionMatches(action(['id']), { name: 'cancel', arguments: { id: 'X', reason: 'other' } }),
    ).toBe(true);
    expect(
      actionMatches(action(['id', 'reason']), { name: 'cancel', arguments: { id: 'X' } }),
    ).toBe(false);
    expect(actionMatches(action([]), { name: 'cancel', arguments: { anything: 1 } })).toBe(true);
    expect(actionMatches(action(['id']), { name: 'refund', arguments: { id: 'X' } })).toBe(false);
    expect(actionMatches(action(null), { name: 'cancel', arguments: '{"id": "X"}' })).toBe(false);
  });
});
