/**
 * A fake leaderboard for the report tests and the browser test: two models on every released
 * split with outcomes fixed by the case index, so each table and figure has rows of both verdicts.
 * Named as a fake, never used by the harness itself.
 */
import type { LineSpec } from './fake-lines.fixture.js';

/** A small leaderboard: two models on every released split (deterministic outcomes). */
export function fakeLeaderboard(
  models: string[] = ['openai:gpt-4o', 'anthropic:claude-sonnet-4-5'],
): LineSpec[] {
  const specs: LineSpec[] = [];
  models.forEach((model, modelIndex) => {
    for (let i = 0; i < 12; i += 1) {
      const right = (mod: number) => (i + modelIndex) % mod === 0;
      specs.push({
        split: 'holistic_planning',
        id: `h${i}`,
        model,
        correct: right(2),
        modality: i % 3 === 0 ? 'image' : 'text',
        steps: 3 + i,
      });
      specs.push({
        split: 'step_wise_planning',
        id: `s${i}`,
        model,
        correct: right(2),
        horizon: ((i % 3) + 1) as 1 | 2 | 3,
        stage: (['early', 'middle', 'late'] as const)[i % 3],
      });
      specs.push({
        split: 'holistic_tool_extraneous',
        id: `h${i}-x${(i % 5) * 2 + 2}`,
        model,
        correct: right(3),
        level: (i % 5) * 2 + 2,
        distractorUses: i % 3,
        errors: right(3) ? [0, 0, 0, 0, 0, 0] : [0, 1, 0, 0, 1, 0],
      });
      specs.push({
        split: 'step_wise_tool_extraneous',
        id: `s${i}-x${(i % 5) * 2 + 2}`,
        model,
        correct: right(2),
        level: (i % 5) * 2 + 2,
        horizon: 1,
        distractorUses: i % 2,
      });
      specs.push({
        split: 'step_wise_tool_broken',
        id: `b${i}`,
        model,
        behavior: (['replace', 'alter', 'retry', 'refuse', 'other'] as const)[i % 5],
        correct: i % 5 === 0,
      });
      specs.push({
        split: 'holistic_unsolvable',
        id: `u${i}`,
        model,
        unsolvableType: (
          [
            'contradictory_constraints',
            'information_missing',
            'tool_removal',
            'visual_missing',
          ] as const
        )[i % 4],
        correct: right(2),
        refused: right(2),
      });
    }
  });
  return specs;
}
