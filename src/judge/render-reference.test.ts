import { describe, expect, it } from 'vitest';
import { makeCase } from './checks/make-case.fixture.js';
import { referenceText } from './render-reference.js';

describe('referenceText', () => {
  it('prints an unsolvable case\'s recorded plan without a "(none recorded)" chain after it', () => {
    const text = referenceText(
      makeCase('holistic_unsolvable', {
        reference: {
          unsolvableType: 'tool_removal',
          plan: 'Not solvable: `get_x` is missing.',
          toolChain: [],
        },
      }),
    );
    expect(text).toContain('Not solvable: `get_x` is missing.');
    expect(text).not.toContain('(none recorded)');
  });

  it("names a tool-broken reference step's reason once", () => {
    const call = { name: 'get_x_v2', arguments: { id: 'A1' }, reason: 'Get the details of X.' };
    const text = referenceText(
      makeCase('step_wise_tool_broken', {
        reference: {
          brokenToolName: 'get_x',
          groundTruthSteps: [{ toolCalls: [call], reason: call.reason }],
        },
      }),
    );
    expect(text).toContain('1. get_x_v2({"id":"A1"}) — Get the details of X.');
    expect(text).not.toContain('because:');
  });

  it('keeps a step reason that says something else', () => {
    const text = referenceText(
      makeCase('step_wise_planning', {
        reference: {
          groundTruthSteps: [
            { toolCalls: [{ name: 'a', arguments: {} }], reason: 'the user asked' },
          ],
        },
      }),
    );
    expect(text).toContain('because: the user asked');
  });
});
