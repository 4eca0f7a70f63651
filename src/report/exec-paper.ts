/**
 * `--compare-paper` for Table 3: our rows beside the paper's τ²-bench rows (data/paper-tables.json,
 * `table3_executable_validation`), the model matched through the paper's aliases, each cell rounded to the
 * paper's printed decimals. This is the τ²-bench half; ToolSandbox's rows are compared by exec-toolsandbox.ts.
 */
import { z } from 'zod';
import type { Table3Row } from '../metrics/executable.js';
import { roundTo } from './numbers.js';
import { matchPaperModel, PaperTablesSchema } from './paper.js';

const PaperRow = z.object({
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

/** Compares our Table 3 rows with the paper's τ²-bench rows; `paperJson` is data/paper-tables.json as parsed JSON. */
export function compareTable3(rows: readonly Table3Row[], paperJson: unknown): Table3Comparison[] {
  const paper = PaperTablesSchema.parse(paperJson);
  const published = Table3File.parse(paperJson).tables.table3_executable_validation.rows.filter(
    (row) => row.benchmark === 'tau2-bench',
  );
  return rows.map((row) => {
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
    return { env: row.env, model: row.model, paperModel: match ? match.model : null, cells };
  });
}
