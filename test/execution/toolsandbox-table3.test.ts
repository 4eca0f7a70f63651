/**
 * Table 3's ToolSandbox rows: percent of the mean similarity per mode beside the APB figures, the
 * minefield hits and turns behind them, and `--compare-paper` against the paper's ToolSandbox rows
 * (data/paper-tables.json, §5.1 Table 3), never its τ²-bench ones.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolSandboxTable3 } from '../../src/execution/environments/toolsandbox/table3.js';
import type { ExecutionLine } from '../../src/execution/records.js';
import { table3, type ExecutionRow } from '../../src/metrics/executable.js';
import { compareToolSandbox } from '../../src/report/exec-toolsandbox.js';

const MODEL = 'openai:gpt-4o';
const rows: ExecutionRow[] = [
  ['direct', 0.5],
  ['plan-first', 0.75],
  ['refine', 1],
].map(([mode, reward]) => ({
  env: 'toolsandbox',
  model: MODEL,
  mode: mode as ExecutionRow['mode'],
  taskId: 'cellular_off',
  trial: 0,
  reward: reward as number,
  rewardIfNlMet: reward as number,
  infrastructureError: false,
  planBefore: mode === 'direct' ? null : { is_correct: false, grade: 0.5 },
  planAfter: mode === 'refine' ? { is_correct: true, grade: 1 } : null,
}));
const lines = rows.map(
  (row) =>
    ({
      env: row.env,
      model: row.model,
      mode: row.mode,
      turns: 3,
      minefield_hit: row.mode === 'direct',
    }) as unknown as ExecutionLine,
);
const tau2 = { ...rows[0]!, env: 'tau2:retail' };

describe("Table 3's ToolSandbox rows", () => {
  it('gives the mean similarity per mode in percent, and only for ToolSandbox', () => {
    const [row, ...rest] = toolSandboxTable3(table3([...rows, tau2]), lines);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      env: 'toolsandbox',
      direct_pct: 50,
      plan_first_pct: 75,
      refine_pct: 100,
      apb_cr_before: 0,
      apb_cr_after: 100,
      apb_grade_before: 0.5,
      apb_grade_after: 1,
      n: 1,
    });
    expect(row!.modes.direct).toEqual({ executions: 1, minefield_hits: 1, mean_turns: 3 });
  });

  it("stands beside the paper's ToolSandbox row of the same model", () => {
    const paper = JSON.parse(
      readFileSync(new URL('../../data/paper-tables.json', import.meta.url), 'utf8'),
    );
    const [compared] = compareToolSandbox(toolSandboxTable3(table3(rows), lines), paper);
    expect(compared!.paperModel).toBe('GPT-4o');
    const cell = (column: string) => compared!.cells.find((c) => c.column === column)!;
    expect(cell('direct_pct')).toMatchObject({ ours: 50, paper: 76.3, matches: false });
    expect(cell('refine_pct').paper).toBe(83.3);
    expect(cell('apb_grade_after').paper).toBe(0.87);
  });
});
