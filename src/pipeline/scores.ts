/** `scores.json`: the official groups over every judgement line, every paper table the rows fill, and the judge sections. */
import { officialScores, type OfficialScores } from '../metrics/official-groups.js';
import { computeTables, type Tables, type TablesOptions } from '../metrics/tables.js';
import type { ResultRow } from '../metrics/result-row.js';
import { judgeSections, type JudgeSections } from './judge-sections.js';
import { ResultLineError, rowFromJudgementLine } from './result-rows.js';

/** The `scores.json` object: the official groups, every paper table this run can fill, and (when they apply) agreement and contradictions. */
export interface ScoresJson extends OfficialScores, JudgeSections {
  tables: Tables;
}

/**
 * Computes `scores.json` from judgement lines: groups over every line exactly as the official scorer
 * does; tables over the lines that convert to rows (a line with an unknown split cannot, and is
 * only in the groups — `onSkipped` hears about each).
 */
export function computeScores(lines: readonly Record<string, unknown>[], options: TablesOptions = {}, onSkipped?: (index: number, message: string) => void): ScoresJson {
  const rows: ResultRow[] = [];
  lines.forEach((line, index) => {
    try {
      rows.push(rowFromJudgementLine(line));
    } catch (error) {
      if (!(error instanceof ResultLineError)) throw error;
      onSkipped?.(index, error.message);
    }
  });
  return { ...officialScores(lines), tables: computeTables(rows, options), ...judgeSections(lines) };
}
