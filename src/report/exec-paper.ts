/**
 * `--compare-paper` for Table 3: our rows beside the paper's τ²-bench rows (data/paper-tables.json,
 * `table3_executable_validation`), the model matched through the paper's aliases, each cell rounded to the
 * paper's printed decimals. Like is set beside like: the paper's τ²-bench row pools 200 tasks of the
 * domains, so only our pooled `tau2` rows are compared with it, never one domain's row (a domain row is
 * listed as not compared), and never the do-nothing floor. The setup differences are listed beside
 * (`setupDifferences`).
 * This is the τ²-bench half; ToolSandbox's rows are compared by exec-toolsandbox.ts.
 */
import { z } from 'zod';
import type { Table3Row } from '../metrics/executable.js';
import { POOLED_TAU2 } from '../metrics/executable-pooled.js';
import { roundTo } from './numbers.js';
import { matchPaperModel, PaperTablesSchema } from './paper.js';

/** One row of the paper's Table 3 (data/paper-tables.json). */
export const PaperRow = z.object({
  benchmark: z.string(),
  model: z.string(),
  direct_exec: z.number(),
  plan_first_exec: z.number(),
  refine_exec: z.number(),
  apb_cr_before: z.number(),
  apb_cr_after: z.number(),
  apb_grade_before: z.number(),
  apb_grade_after: z.number(),
});
const Table3File = z.object({
  tables: z.object({ table3_executable_validation: z.object({ rows: z.array(PaperRow) }) }),
});

/** One compared cell. */
export interface Table3Cell {
  column: string;
  ours: number | null;
  oursRounded: number | null;
  paper: number;
  decimals: number;
  matches: boolean;
}

/** One of our rows against the paper's row for the same model. */
export interface Table3Comparison {
  env: string;
  model: string;
  paperModel: string | null;
  cells: Table3Cell[];
  /** Why the row is not compared (one domain's row), when it is not. */
  notCompared?: string;
}

const COLUMNS: Array<{
  ours: keyof Table3Row;
  paper: keyof z.infer<typeof PaperRow>;
  decimals: number;
}> = [
  { ours: 'direct', paper: 'direct_exec', decimals: 2 },
  { ours: 'plan_first', paper: 'plan_first_exec', decimals: 2 },
  { ours: 'refine', paper: 'refine_exec', decimals: 2 },
  { ours: 'apb_cr_before', paper: 'apb_cr_before', decimals: 1 },
  { ours: 'apb_cr_after', paper: 'apb_cr_after', decimals: 1 },
  { ours: 'apb_grade_before', paper: 'apb_grade_before', decimals: 2 },
  { ours: 'apb_grade_after', paper: 'apb_grade_after', decimals: 2 },
];

/** The paper's Table 3 rows of one benchmark (`tau2-bench` or `ToolSandbox`). */
export function paperTable3Rows(paperJson: unknown, benchmark: string): z.infer<typeof PaperRow>[] {
  const file = Table3File.parse(paperJson);
  return file.tables.table3_executable_validation.rows.filter((row) => row.benchmark === benchmark);
}

/** Compares our Table 3 rows with the paper's τ²-bench rows; `paperJson` is data/paper-tables.json as parsed JSON. */
export function compareTable3(rows: readonly Table3Row[], paperJson: unknown): Table3Comparison[] {
  const paper = PaperTablesSchema.parse(paperJson);
  const published = paperTable3Rows(paperJson, 'tau2-bench');
  return rows.flatMap((row): Table3Comparison[] => {
    if (row.floor) return [];
    if (row.env !== POOLED_TAU2)
      return [
        {
          env: row.env,
          model: row.model,
          paperModel: null,
          cells: [],
          notCompared: `one environment's row; the paper's row pools 200 tasks, so the pooled ${POOLED_TAU2} row is compared`,
        },
      ];
    const canonical = matchPaperModel(row.model, paper);
    const match = canonical
      ? published.find((item) => (paper.model_aliases[item.model] ?? item.model) === canonical)
      : undefined;
    const cells: Table3Cell[] = match
      ? COLUMNS.map(({ ours, paper: column, decimals }) => {
          const value = row[ours] as number | null;
          const rounded = value === null ? null : roundTo(value, decimals);
          const printed = match[column] as number;
          return {
            column: String(ours),
            ours: value,
            oursRounded: rounded,
            paper: printed,
            decimals,
            matches: rounded !== null && Math.abs(rounded - printed) < 1e-9,
          };
        })
      : [];
    return [{ env: row.env, model: row.model, paperModel: match ? match.model : null, cells }];
  });
}

/** How our setup differs from the paper's (or where the paper is silent), for the comparison's reader. */
export function setupDifferences(
  rows: readonly Table3Row[],
  players: { user_models: string[]; critics: string[]; plan_judges: string[] } | undefined,
): string[] {
  const pooled = rows.filter((row) => row.env === POOLED_TAU2 && !row.floor);
  const out: string[] = [];
  for (const row of pooled) {
    const domains = Object.entries(row.domains ?? {})
      .map(([domain, n]) => `${domain} ${n}`)
      .join(', ');
    if (row.n !== 200 || Object.keys(row.domains ?? {}).length < 3)
      out.push(`tasks: ours pools ${row.n} (${domains}); the paper's row pools 200 τ²-bench tasks`);
    else
      out.push(
        `tasks: ours pools 200 (${domains}); the paper does not say which 200 it ran (apb's paper200 is its own choice)`,
      );
    if (row.trials !== 1) out.push(`trials: ours ${row.trials} per task; the paper does not say`);
    const unevaluated = Object.values(row.detail.modes).reduce((sum, m) => sum + m.unevaluated, 0);
    if (unevaluated > 0)
      out.push(`${unevaluated} execution(s) with unjudged NL assertions are left out of our means`);
  }
  if (players?.plan_judges.includes('rules'))
    out.push("plan judge: the structural `rules` judge, not the paper's LLM judge protocol");
  out.push(
    `user simulator: ${players?.user_models.join(', ') || 'unknown'}; the paper does not name its user model`,
    `refine critic: ${players?.critics.join(', ') || 'none'}; the paper calls it APB-guided critique without naming the critic model`,
    "planner context: our planner sees the user's first message only; the paper does not say what its planner saw",
  );
  return out;
}
