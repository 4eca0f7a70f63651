/**
 * Inference-time refinement (paper §5.3, C.7; Table 4): base against refined CR per (method,
 * regime), with the flips both ways and the exact McNemar p-value on them. A method is (mode, taxonomy,
 * critic, rounds). The base of a refined row is the verdict its line records for the initial answer
 * (`refinement.initial`, under the same judge); a row without one pairs with the same model's and
 * judge's unrefined row of the same (split, id, repeat), and a refined row with neither is left out
 * (`unpaired`). Regimes: `holistic` = holistic_planning; step_wise_planning always per horizon,
 * `step_wise_next{k}` (the paper's step-wise column is `step_wise_next1`: the official refinement
 * evaluator is next-1 only; no row pools horizons); every other split under its own name. Refined
 * CR counts a refinement that produced no answer as not correct, like a
 * failed planner call (docs/metrics.md, "Table 4").
 */
import { SPLITS, type SplitName } from '../dataset/case.js';
import { isCorrect } from './correctness-rate.js';
import { wilson, type Interval } from './intervals.js';
import { mcnemarExact } from './paired.js';
import type { ResultRow, RowRefinement } from './result-row.js';

/** One Table 4 row body (tables.ts adds model and judge). Rates are percentages, unrounded. */
export interface RefinementRow {
  mode: RowRefinement['mode'];
  taxonomy: boolean;
  critic: string | null;
  rounds: number;
  /** `holistic`, `step_wise_next{k}` (per horizon), or a split name beyond the paper's two. */
  regime: string;
  split: SplitName;
  horizon: number | null;
  base_cr: number | null;
  refined_cr: number | null;
  /** refined_cr − base_cr, points. */
  delta: number | null;
  /** Paired cases: refined rows with a base. */
  n: number;
  /**
   * Paired cases per source (`source` or `source/subset`), so the subset can be set beside the
   * paper's 25 per source + 5 per real-traffic subset.
   */
  sources: Record<string, number>;
  flips: { to_correct: number; to_incorrect: number };
  /** Two-sided exact McNemar p-value on the flips; 1 without a flip. */
  p_value: number;
  base_ci: Interval | null;
  refined_ci: Interval | null;
  /** Paired cases whose refinement produced no answer (failed critique or revision), counted as not correct. */
  failed: number;
  /** Refined rows left out for want of a base verdict. */
  unpaired: number;
}

/**
 * A correct answer that refinement made incorrect (the paper's over-correction, Appendix F.5), with
 * the critiques that led there.
 */
export interface OverCorrection {
  mode: RowRefinement['mode'];
  taxonomy: boolean;
  critic: string | null;
  rounds: number;
  split: SplitName;
  id: string;
  repeat: number;
  base_grade: number | null;
  refined_grade: number | null;
  critiques: string[];
}

const key = (row: ResultRow) => `${row.facets.split}\u0000${row.id}\u0000${row.repeat}`;
const methodKey = (refinement: RowRefinement) =>
  JSON.stringify([refinement.mode, refinement.taxonomy, refinement.critic, refinement.rounds ?? 1]);
const PAPER_REGIMES: Partial<Record<SplitName, string>> = { holistic_planning: 'holistic' };

interface Pair {
  refined: ResultRow;
  base: { correct: boolean; grade: number | null };
}

/** The base verdict of a refined row: its recorded initial verdict, else the matching unrefined row. */
function basesOf(
  refined: readonly ResultRow[],
  unrefined: ReadonlyMap<string, ResultRow>,
): { pairs: Pair[]; unpaired: number } {
  const pairs: Pair[] = [];
  let unpaired = 0;
  for (const row of refined) {
    const initial = row.refinement?.initial;
    const match = unrefined.get(key(row));
    if (initial) pairs.push({ refined: row, base: initial });
    else if (match)
      pairs.push({ refined: row, base: { correct: isCorrect(match), grade: match.grade } });
    else unpaired += 1;
  }
  return { pairs, unpaired };
}

function sourceCounts(pairs: readonly Pair[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { refined } of pairs) {
    const { source, sourceSubset } = refined.facets;
    const name = `${source ?? '(none)'}${sourceSubset ? `/${sourceSubset}` : ''}`;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

function cell(
  refinement: RowRefinement,
  regime: string,
  split: SplitName,
  horizon: number | null,
  pairs: Pair[],
  unpaired: number,
): RefinementRow {
  const n = pairs.length;
  const baseCorrect = pairs.filter((pair) => pair.base.correct).length;
  const refinedCorrect = pairs.filter((pair) => isCorrect(pair.refined)).length;
  const toCorrect = pairs.filter((pair) => !pair.base.correct && isCorrect(pair.refined)).length;
  const toIncorrect = pairs.filter((pair) => pair.base.correct && !isCorrect(pair.refined)).length;
  const rate = (count: number) => (n > 0 ? (100 * count) / n : null);
  const [base, refined] = [rate(baseCorrect), rate(refinedCorrect)];
  return {
    mode: refinement.mode,
    taxonomy: refinement.taxonomy,
    critic: refinement.critic,
    rounds: refinement.rounds ?? 1,
    regime,
    split,
    horizon,
    base_cr: base,
    refined_cr: refined,
    delta: base === null || refined === null ? null : refined - base,
    n,
    sources: sourceCounts(pairs),
    flips: { to_correct: toCorrect, to_incorrect: toIncorrect },
    p_value: mcnemarExact(toCorrect, toIncorrect),
    base_ci: wilson(baseCorrect, n),
    refined_ci: wilson(refinedCorrect, n),
    failed: pairs.filter((pair) => pair.refined.plannerStatus === 'error').length,
    unpaired,
  };
}

/** The refined rows of one model and judge, by method, in first-seen order. */
function methods(
  rows: readonly ResultRow[],
): Array<{ refinement: RowRefinement; rows: ResultRow[] }> {
  const found = new Map<string, { refinement: RowRefinement; rows: ResultRow[] }>();
  for (const row of rows) {
    if (!row.refinement) continue;
    const id = methodKey(row.refinement);
    let entry = found.get(id);
    if (!entry) found.set(id, (entry = { refinement: row.refinement, rows: [] }));
    entry.rows.push(row);
  }
  return [...found.values()];
}

/**
 * Table 4 for one model and judge: per method, one row per regime it refined (the paper's two
 * first, then the other splits).
 */
export function refinementRows(rows: readonly ResultRow[]): RefinementRow[] {
  const unrefined = new Map(rows.filter((row) => !row.refinement).map((row) => [key(row), row]));
  return methods(rows).flatMap(({ refinement, rows: refined }) =>
    SPLITS.flatMap((split) => {
      const ofSplit = refined.filter((row) => row.facets.split === split);
      if (ofSplit.length === 0) return [];
      if (split !== 'step_wise_planning') {
        const { pairs, unpaired } = basesOf(ofSplit, unrefined);
        return [cell(refinement, PAPER_REGIMES[split] ?? split, split, null, pairs, unpaired)];
      }
      // Step-wise rows are per horizon only: a pooled row mixes next-1 with next-2/3 cases (a
      // lower base CR) and the paper's step-wise column is next-1 alone (audit §2.7).
      const horizonOf = (row: ResultRow) => row.facets.horizon ?? 1;
      const horizons = [...new Set(ofSplit.map(horizonOf))].sort();
      return horizons.map((horizon) => {
        const { pairs, unpaired } = basesOf(
          ofSplit.filter((row) => horizonOf(row) === horizon),
          unrefined,
        );
        return cell(refinement, `step_wise_next${horizon}`, split, horizon, pairs, unpaired);
      });
    }),
  );
}

/** Every over-correction of one model and judge: correct before refinement, not correct after. */
export function overCorrections(rows: readonly ResultRow[]): OverCorrection[] {
  const unrefined = new Map(rows.filter((row) => !row.refinement).map((row) => [key(row), row]));
  return methods(rows).flatMap(({ refinement, rows: refined }) =>
    basesOf(refined, unrefined)
      .pairs.filter((pair) => pair.base.correct && !isCorrect(pair.refined))
      .map(({ refined: row, base }) => ({
        mode: refinement.mode,
        taxonomy: refinement.taxonomy,
        critic: refinement.critic,
        rounds: refinement.rounds ?? 1,
        split: row.facets.split,
        id: row.id,
        repeat: row.repeat,
        base_grade: base.grade,
        refined_grade: row.grade,
        critiques: row.refinement?.critiques ?? [],
      })),
  );
}
