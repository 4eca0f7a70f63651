import { describe, expect, it } from 'vitest';
import { roleNotes } from './labels.js';

describe('roleNotes', () => {
  it('explains only the baselines that ran, and the rules judge when it judged', () => {
    expect(roleNotes(['baseline:heuristic', 'openai:gpt-4o'], ['openai:gpt-4o-mini'])).toEqual([
      'baseline:heuristic is a lexical-retrieval planner (a floor): a named non-LLM planner, not a model.',
    ]);
    const both = roleNotes(['baseline:refuse', 'baseline:oracle'], ['rules']);
    expect(both).toHaveLength(2);
    expect(both[0]).toContain('structural judge');
    expect(both[1]).toBe(
      'baseline:oracle replays the reference (a sanity ceiling) and baseline:refuse always refuses: named non-LLM planners, not models.',
    );
    expect(roleNotes(['openai:gpt-4o'], ['openai:gpt-4o-mini'])).toEqual([]);
  });
});
