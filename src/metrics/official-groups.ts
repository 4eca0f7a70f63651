/**
 * The official released runner's `score`, re-implemented exactly as the audit describes it (audit
 * §3.1, §5 item 8), and the full `scores.json` object. Deliberately NOT our metrics: no filtering by
 * model or judge, no de-duplication, Python truthiness for `is_correct`. Reading of each ambiguous
 * point: docs/metrics.md ("Official groups").
 */

/** One group of the official scorer. */
export interface OfficialGroup {
  /** Every line of the group. */
  records: number;
  /** Mean of Python `bool(is_correct)` over the lines whose judgement has the key; null when none has it. */
  accuracy: number | null;
  /** Mean of the numeric grades (booleans count as 1/0, as Python's `isinstance(x, (int, float))`); null when none. */
  average_grade: number | null;
}

/** What the official scorer writes. */
export interface OfficialScores {
  total_records: number;
  groups: Record<string, OfficialGroup>;
}

/**
 * Python's `bool(value)` for a JSON value: false, null, 0, "", [] and {} are falsy; everything else
 * (even "false") is truthy.
 */
export function pythonTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '')
    return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Python's `isinstance(value, (int, float))` for a JSON value: numbers and booleans. */
function pythonNumber(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return null;
}

const GROUP_FIELDS = ['split', 'planning_regime', 'task_family', 'task_category'] as const;

/**
 * Our own split that the official harness never produces (Table 5's efficiency lines): the
 * official scorer never sees such a line, so its groups leave them out (they have their own table).
 */
export const NOT_OFFICIAL_SPLITS: readonly string[] = ['holistic_efficiency'];

interface Accumulator {
  records: number;
  judged: number;
  correct: number;
  gradeSum: number;
  graded: number;
}

/**
 * The official groups of a set of judgement lines: `overall`, then each line's split,
 * planning_regime, task_family and task_category (non-empty strings only) in one flat namespace,
 * in first-seen order. A line counts once per name it yields, so a line whose task_category equals
 * its own split counts twice in that group. `splits` mimics the runner's `--splits` filter; lines
 * of `NOT_OFFICIAL_SPLITS` count only with `allSplits` (the bare scorer, as the Python check runs it).
 */
export function officialScores(
  lines: readonly Record<string, unknown>[],
  options: { splits?: readonly string[]; allSplits?: boolean } = {},
): OfficialScores {
  const groups = new Map<string, Accumulator>();
  let total = 0;
  for (const line of lines) {
    if (options.splits && !options.splits.includes(line.split as string)) continue;
    if (!options.allSplits && NOT_OFFICIAL_SPLITS.includes(line.split as string)) continue;
    total += 1;
    const raw = line.judgement;
    const judgement =
      raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const names = ['overall', ...GROUP_FIELDS.map((field) => line[field])].filter(
      (name): name is string => typeof name === 'string' && name !== '',
    );
    const grade = pythonNumber(judgement.grade);
    for (const name of names) {
      let group = groups.get(name);
      if (!group)
        groups.set(name, (group = { records: 0, judged: 0, correct: 0, gradeSum: 0, graded: 0 }));
      group.records += 1;
      if (Object.hasOwn(judgement, 'is_correct')) {
        group.judged += 1;
        if (pythonTruthy(judgement.is_correct)) group.correct += 1;
      }
      if (grade !== null) {
        group.gradeSum += grade;
        group.graded += 1;
      }
    }
  }
  const out: Record<string, OfficialGroup> = {};
  for (const [name, group] of groups) {
    const value: OfficialGroup = {
      records: group.records,
      accuracy: group.judged > 0 ? group.correct / group.judged : null,
      average_grade: group.graded > 0 ? group.gradeSum / group.graded : null,
    };
    // defineProperty: a group named "__proto__" must stay a plain key.
    Object.defineProperty(out, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { total_records: total, groups: out };
}
