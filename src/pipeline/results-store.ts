/**
 * The result files' line schemas in the store's shape (`resultLineSchema`), and the JSONL helpers
 * the pipeline reads result files with. The stores themselves are `rundir/jsonl-store.ts`'s
 * (opened by a run's session, `run-stores.ts`).
 */
import type { JudgementLine, PredictionLine } from './records.js';
import type { LineSchema } from '../rundir/line-schema.js';
import { runFileLineSchema } from '../rundir/schemas/index.js';
import {
  damagedLine,
  dropTornLine,
  lineText,
  readJsonLines,
  strictLinePlaces,
  type LineSource,
} from '../rundir/jsonl-store.js';

export { damagedLine, dropTornLine, lineText, readJsonLines, strictLinePlaces, type LineSource };

/** The result files read back strictly, and the line type each holds. */
interface ResultFiles {
  predictions: PredictionLine;
  judgements: JudgementLine;
}

/**
 * A result file's schema (`rundir/schemas/`, migration included) in the store's `safeParse`
 * shape: the same schema that types the lines checks them when they are read back.
 */
export function resultLineSchema<Id extends keyof ResultFiles>(
  id: Id,
): LineSchema<ResultFiles[Id]> {
  return runFileLineSchema(id) as LineSchema<ResultFiles[Id]>;
}
