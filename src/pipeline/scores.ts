/** `scores.json`: the official groups over every judgement line, every paper table the rows fill, and the judge sections. */
import { SPLITS } from '../dataset/case.js';
import { officialScores, type OfficialScores } from '../metrics/official-groups.js';
import { computeTables, type Tables, type TablesOptions } from '../metrics/tables.js';
import type { ResultRow } from '../metrics/result-row.js';
import { judgeSections, type JudgeSections } from './judge-sections.js';
import { ResultLineError, rowFromJudgementLine } from './result-rows.js';

/** The `scores.json` object: the official groups, every paper table this run can fill, and (when they apply) agreement and contradictions. */
export interface ScoresJson extends OfficialScores, JudgeSections {
  tables: Tables;
}

type Loose = Record<string, unknown>;
const asObject = (value: unknown): Loose | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null;

/** The judgement keys the official groups and the judge sections read (never the reasoning text). */
const JUDGEMENT_KEYS = [
  'is_correct',
  'grade',
  'error_list',
  'behavior',
  'refused',
  'category',
  'category_name',
] as const;
/** Dataset keys the official groups are named by (non-strings name no group, so they are dropped). */
const GROUP_KEYS = ['split', 'planning_regime', 'task_family', 'task_category'] as const;

function slimJudgement(value: unknown): Loose | null {
  const judgement = asObject(value);
  if (!judgement) return null;
  const slim: Loose = {};
  for (const key of JUDGEMENT_KEYS) if (Object.hasOwn(judgement, key)) slim[key] = judgement[key];
  return slim;
}

/**
 * What `officialScores` and `judgeSections` read of a line, and nothing else: a few hundred bytes
 * instead of the whole line (dataset fields, answer, reasoning), so a run's lines need not be held.
 */
export function slimLine(line: Loose): Loose {
  const slim: Loose = {
    id: line.id,
    tested_model: line.tested_model,
    judge_model: line.judge_model,
    judgement: slimJudgement(line.judgement),
  };
  for (const key of GROUP_KEYS) slim[key] = typeof line[key] === 'string' ? line[key] : null;
  const apb = asObject(line.apb);
  if (!apb) return slim;
  const members = Array.isArray(apb.judges)
    ? apb.judges
        .map(asObject)
        .filter((member): member is Loose => member !== null)
        .map((member) => ({
          judge: member.judge,
          status: member.status,
          judgement: slimJudgement(member.judgement),
          contradictions: member.contradictions,
        }))
    : undefined;
  const repeat = asObject(apb.prediction)?.repeat;
  slim.apb = {
    status: apb.status,
    contradictions: apb.contradictions,
    prediction: { repeat },
    ...(members ? { judges: members } : {}),
  };
  return slim;
}

/** One line's share of the scores, with its place in the canonical order. */
interface ScoredLine {
  group: number;
  split: number;
  id: string;
  repeat: number;
  method: string;
  slim: Loose;
  row: ResultRow | null;
}

const splitRank = (split: unknown) => {
  const index = SPLITS.indexOf(split as (typeof SPLITS)[number]);
  return index >= 0 ? index : SPLITS.length;
};

function canonicalOrder(a: ScoredLine, b: ScoredLine): number {
  return (
    a.group - b.group ||
    a.split - b.split ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) ||
    a.repeat - b.repeat ||
    (a.method < b.method ? -1 : a.method > b.method ? 1 : 0)
  );
}

/**
 * Builds `scores.json` from judgement lines fed one at a time, keeping only each line's row and slim
 * copy. Every figure is computed over the lines in a canonical order — (tested model, judge) in
 * first-seen order, then split, id, repeat and refinement; duplicates in file order — so the same
 * set of lines gives the same `scores.json` to the last bit whatever order the lines were written
 * in (a run's completion order, or shards merged).
 */
export class ScoresAccumulator {
  private readonly items: ScoredLine[] = [];
  private readonly groups = new Map<string, number>();
  private added = 0;

  constructor(
    private readonly onSkipped?: (index: number, message: string) => void,
    /** The JSON cap a line's dataset fields are read under (lines without facets). */
    private readonly jsonDepth?: number,
  ) {}

  /** Adds the next line of the file (its index is its position among the lines added). */
  add(line: Loose): void {
    const index = this.added++;
    let row: ResultRow | null = null;
    try {
      row = rowFromJudgementLine(line, this.jsonDepth);
    } catch (error) {
      if (!(error instanceof ResultLineError)) throw error;
      this.onSkipped?.(index, error.message);
    }
    const groupKey = JSON.stringify([line.tested_model ?? null, line.judge_model ?? null]);
    let group = this.groups.get(groupKey);
    if (group === undefined) this.groups.set(groupKey, (group = this.groups.size));
    const apb = asObject(line.apb);
    const repeat = asObject(apb?.prediction)?.repeat;
    const method = JSON.stringify(apb?.refinement ?? asObject(apb?.prediction)?.refinement ?? null);
    this.items.push({
      group,
      split: splitRank(line.split),
      id: String(line.id ?? ''),
      repeat: typeof repeat === 'number' ? repeat : 0,
      method,
      slim: slimLine(line),
      row,
    });
  }

  /** The scores of every line added so far. */
  result(options: TablesOptions = {}): ScoresJson {
    // Array.prototype.sort is stable: lines with the same key keep their file order (the latest wins in the tables).
    const ordered = [...this.items].sort(canonicalOrder);
    const slims = ordered.map((item) => item.slim);
    const rows = ordered.flatMap((item) => (item.row ? [item.row] : []));
    return {
      ...officialScores(slims),
      tables: computeTables(rows, options),
      ...judgeSections(slims),
    };
  }
}

/**
 * Computes `scores.json` from judgement lines: groups over every line exactly as the official scorer
 * does; tables over the lines that convert to rows (a line with an unknown split cannot, and is
 * only in the groups — `onSkipped` hears about each). Independent of the lines' order (see `ScoresAccumulator`).
 */
export function computeScores(
  lines: Iterable<Record<string, unknown>>,
  options: TablesOptions = {},
  onSkipped?: (index: number, message: string) => void,
): ScoresJson {
  const accumulator = new ScoresAccumulator(onSkipped);
  for (const line of lines) accumulator.add(line);
  return accumulator.result(options);
}
