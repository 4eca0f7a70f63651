// Every one of the 1,032 scenarios loads, and ToolSandbox's do-nothing agent (UnhelpfulAgent)
// followed by the user's end_conversation scores what ToolSandbox's own evaluator gives the same
// conversation (exported by scripts/toolsandbox/export_unhelpful.py; Apple's licence:
// data/toolsandbox/LICENSE).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/execution/environments/toolsandbox/evaluation.js';
import type { Row } from '../../src/execution/environments/toolsandbox/frame.js';
import { loadScenarios } from '../../src/execution/environments/toolsandbox/scenarios.js';

interface Expected {
  added_messages: Row[];
  similarity: number;
  milestone_similarity: number;
  minefield_similarity: number;
  milestone_mapping: [number, [number, number]][];
  turn_count: number;
}

const expected = (
  JSON.parse(
    readFileSync(new URL('../fixtures/toolsandbox/unhelpful.json', import.meta.url), 'utf8'),
  ) as { results: Record<string, Expected> }
).results;

describe('ToolSandbox scenarios', () => {
  const { scenarios } = loadScenarios();

  it('scores the do-nothing agent exactly as ToolSandbox does on every scenario', () => {
    expect(Object.keys(expected)).toHaveLength(1032);
    const mismatches: string[] = [];
    for (const scenario of scenarios) {
      const want = expected[scenario.name]!;
      const context = scenario.startingContext();
      for (const { sandbox_message_index: _, ...row } of want.added_messages)
        context.addToDatabase('sandbox', [row]);
      const got = evaluate(scenario.evaluation, context);
      const same =
        Math.abs(got.similarity - want.similarity) < 1e-6 &&
        Math.abs(got.milestoneSimilarity - want.milestone_similarity) < 1e-6 &&
        Math.abs(got.minefieldSimilarity - want.minefield_similarity) < 1e-6 &&
        got.turnCount === want.turn_count;
      if (!same)
        mismatches.push(
          `${scenario.name}: got ${got.similarity}/${got.milestoneSimilarity}/${got.minefieldSimilarity}/${got.turnCount}, want ${want.similarity}/${want.milestone_similarity}/${want.minefield_similarity}/${want.turn_count}`,
        );
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
  }, 120_000);
});
