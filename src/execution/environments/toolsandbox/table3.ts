/**
 * Table 3's ToolSandbox rows (paper §5.1): per model, the mean trajectory similarity of direct,
 * plan-first and refine in percent (the paper prints ToolSandbox so), the draft's and the refined
 * plan's APB CR and grade, and what lies behind the means: scenarios, minefield hits and mean
 * turns per mode. Computed from the generic Table 3 rows (whose "reward" of a ToolSandbox line is
 * its similarity) and the lines themselves; rows are keyed by environment, so tau2's stay apart.
 */
import type { Table3Row } from '../../../metrics/executable.js';
import type { ExecutionLine } from '../../records.js';

/** The environment id of ToolSandbox's rows. */
export const TOOLSANDBOX_ENV = 'toolsandbox';

/** One mode's figures behind its mean. */
export interface ToolSandboxModeFigures {
  executions: number;
  minefield_hits: number;
  mean_turns: number | null;
}

/** A ToolSandbox row of Table 3. */
export interface ToolSandboxTable3Row {
  env: string;
  model: string;
  /** Mean similarity × 100, as the paper prints it. */
  direct_pct: number | null;
  plan_first_pct: number | null;
  refine_pct: number | null;
  apb_cr_before: number | null;
  apb_cr_after: number | null;
  apb_grade_before: number | null;
  apb_grade_after: number | null;
  /** Distinct scenarios. */
  n: number;
  trials: number;
  modes: Partial<Record<'direct' | 'plan-first' | 'refine', ToolSandboxModeFigures>>;
}

const pct = (value: number | null) => (value === null ? null : value * 100);

function modeFigures(lines: readonly ExecutionLine[]): ToolSandboxModeFigures {
  const turns = lines.flatMap((line) => (typeof line.turns === 'number' ? [line.turns] : []));
  return {
    executions: lines.length,
    minefield_hits: lines.filter((line) => line.minefield_hit === true).length,
    mean_turns: turns.length > 0 ? turns.reduce((a, b) => a + b, 0) / turns.length : null,
  };
}

/** The ToolSandbox rows of Table 3, in the generic table's order. */
export function toolSandboxTable3(
  rows: readonly Table3Row[],
  lines: readonly ExecutionLine[],
): ToolSandboxTable3Row[] {
  return rows
    .filter((row) => row.env === TOOLSANDBOX_ENV && !row.floor)
    .map((row) => {
      const own = lines.filter((line) => line.env === row.env && line.model === row.model);
      const modes: ToolSandboxTable3Row['modes'] = {};
      for (const mode of ['direct', 'plan-first', 'refine'] as const) {
        const of = own.filter((line) => line.mode === mode);
        if (of.length > 0) modes[mode] = modeFigures(of);
      }
      return {
        env: row.env,
        model: row.model,
        direct_pct: pct(row.direct),
        plan_first_pct: pct(row.plan_first),
        refine_pct: pct(row.refine),
        apb_cr_before: row.apb_cr_before,
        apb_cr_after: row.apb_cr_after,
        apb_grade_before: row.apb_grade_before,
        apb_grade_after: row.apb_grade_after,
        n: row.n,
        trials: row.trials,
        modes,
      };
    });
}
