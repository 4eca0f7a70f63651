// Every one of the 1,032 scenarios loads, and ToolSandbox's do-nothing agent (UnhelpfulAgent)
// followed by the user's end_conversation scores what ToolSandbox's own evaluator gives the same
// conversation (exported by scripts/toolsandbox/export_unhelpful.py; Apple's licence:
// data/toolsandbox/LICENSE).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { playReplay } from '../../src/execution/environments/toolsandbox/replay.js';
import type { Row } from '../../src/execution/environments/toolsandbox/frame.js';
import { loadScenarios } from '../../src/execution/environments/toolsandbox/scenarios.js';
import { TOOLS } from '../../src/execution/environments/toolsandbox/tools.js';
import { createToolSandboxEnvironment } from '../../src/execution/environments/toolsandbox/environment.js';
import { toolSandboxFloorLines } from '../../src/execution/environments/toolsandbox/replay-run.js';

/** ToolSandbox's UnhelpfulAgent: one fixed reply; the user then ends the conversation. */
const UNHELPFUL = {
  scenario: '',
  turns: [{ role: 'agent' as const, text: 'I am sorry, but I cannot assist with that.' }],
};

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

  it('plays the do-nothing agent into the same log and score as ToolSandbox on every scenario', () => {
    expect(Object.keys(expected)).toHaveLength(1032);
    const mismatches: string[] = [];
    for (const scenario of scenarios) {
      const want = expected[scenario.name]!;
      const { session, result: got } = playReplay(scenario, UNHELPFUL, TOOLS);
      const start = scenario.startingContext().maxSandboxMessageIndex;
      const added = session.context
        .getDatabase('sandbox', { allHistory: true, keepIndex: true })
        .filter((row) => (row.sandbox_message_index as number) > start);
      if (JSON.stringify(added) !== JSON.stringify(want.added_messages))
        mismatches.push(`${scenario.name}: message log differs`);
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

describe("ToolSandbox's Table 3 floor (floor.jsonl)", () => {
  it('is the do-nothing agent scored as ToolSandbox scores it, solved scenarios included', () => {
    const environment = createToolSandboxEnvironment({ selection: { subset: 'all' } });
    const ids = [
      'find_current_city_insufficient_information',
      'find_days_till_holiday_insufficient_information_alt',
      'cellular_off',
      ...Object.keys(expected)
        .filter((name) => expected[name]!.similarity % 1 !== 0)
        .slice(0, 2),
    ];
    const lines = toolSandboxFloorLines(
      environment,
      ids.map((id) => ({ id })),
    );
    expect(lines.map((line) => line.task_id)).toEqual(ids);
    for (const line of lines) {
      expect(line).toMatchObject({ env: 'toolsandbox', model: 'do-nothing', mode: 'replay' });
      expect(line.reward).toBeCloseTo(expected[line.task_id]!.similarity, 6);
    }
    expect(lines.filter((line) => line.reward === 1)).toHaveLength(2);
    expect(lines.filter((line) => line.reward! > 0 && line.reward! < 1)).toHaveLength(2);
  }, 60_000);
});
