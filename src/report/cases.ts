/**
 * The case browser's data: compact columns over cases and judgements (what the filters scan, so
 * 50,000 judgements filter in milliseconds) and the per-case and per-answer details shown when a
 * case is opened. Pure; media arrive already read (data: URLs) from the I/O layer.
 */
import { SPLITS, STAGES } from '../dataset/case.js';
import type { ResultRow } from '../metrics/result-row.js';
import { BROKEN_BEHAVIORS } from '../judge/verdict.js';
import { caseDetailOf, rowDetailOf, type CaseDetail, type RowDetail } from './case-details.js';

/** One judgement line with the row parsed from it. */
export interface LineWithRow {
  line: Record<string, unknown>;
  row: ResultRow;
}

/** An embedded file: a data: URL, or a note saying why it is not embedded. */
export interface MediaItem {
  dataUrl: string | null;
  note: string | null;
}

/** Row outcome codes of `rows.status`. */
export const ROW_STATUS = ['correct', 'incorrect', 'planner error', 'parse error', 'judge error'] as const;

/** The browser's data: lookup lists, compact columns, details aligned with them, and media. */
export interface CaseBrowserData {
  models: string[];
  judges: string[];
  splits: string[];
  behaviors: string[];
  stages: string[];
  /** One entry per case (split + id): split index, id, distractor level / horizon / stage index (-1 none), query head. */
  cases: { split: number[]; id: string[]; level: number[]; horizon: number[]; stage: number[]; query: string[] };
  /** One entry per judgement: case, model, judge, ROW_STATUS index, E1–E6 bitmask, behaviour (-1 none), grade ×5 (-1 none), repeat. */
  rows: { c: number[]; m: number[]; j: number[]; s: number[]; e: number[]; b: number[]; g: number[]; r: number[] };
  caseDetails: CaseDetail[];
  /** The line behind each judgement (aligned with `rows`); `rowDetailOf` turns one into what the page shows, chunk by chunk when rendering. */
  rowSources: LineWithRow[];
  media: MediaItem[];
}

/** What the page shows for judgement `index` of the browser data. */
export function rowDetailAt(data: CaseBrowserData, index: number): RowDetail {
  const source = data.rowSources[index]!;
  return rowDetailOf(source.line, source.row.findings);
}

/** The key of one media file of one run in the media map handed in by the I/O layer. */
export function mediaKey(runIndex: number, path: string): string {
  return `${runIndex}\u0000${path}`;
}

/** Row outcome code: planner failures first, then judge failures, then the verdict. */
export function statusCode(row: ResultRow): number {
  if (row.plannerStatus === 'error') return 2;
  if (row.plannerStatus === 'parse_error') return 3;
  if (row.judgeStatus === 'judge_error') return 4;
  return row.correct ? 0 : 1;
}

/** E1–E6 flags as a bitmask (bit 0 = E1). */
export function errorBits(row: ResultRow): number {
  return row.errors.reduce((bits, flag, index) => (flag ? bits | (1 << index) : bits), 0);
}

function indexer(initial: readonly string[] = []) {
  const list = [...initial];
  const positions = new Map(list.map((value, index) => [value, index]));
  return {
    list,
    of(value: string): number {
      let index = positions.get(value);
      if (index === undefined) {
        index = list.length;
        list.push(value);
        positions.set(value, index);
      }
      return index;
    },
  };
}

/** Builds the browser data from every run's lines (runs in order), sorted by case, then model, judge and repeat. */
export function buildCaseBrowser(runs: readonly (readonly LineWithRow[])[], media: ReadonlyMap<string, MediaItem> = new Map()): CaseBrowserData {
  const models = indexer();
  const judges = indexer();
  const splits = indexer(SPLITS);
  const caseIndex = new Map<string, number>();
  const data: CaseBrowserData = {
    models: models.list,
    judges: judges.list,
    splits: splits.list,
    behaviors: [...BROKEN_BEHAVIORS],
    stages: [...STAGES],
    cases: { split: [], id: [], level: [], horizon: [], stage: [], query: [] },
    rows: { c: [], m: [], j: [], s: [], e: [], b: [], g: [], r: [] },
    caseDetails: [],
    rowSources: [],
    media: [],
  };
  const mediaIndex = new Map<string, number>();
  const entries: { c: number; m: number; j: number; item: LineWithRow }[] = [];
  runs.forEach((lines, runIndex) => {
    const mediaFor = (path: string) => {
      const key = mediaKey(runIndex, path);
      const item = media.get(key);
      if (!item) return { index: null, note: 'not embedded: the dataset file was not found' };
      if (!item.dataUrl) return { index: null, note: item.note };
      let index = mediaIndex.get(key);
      if (index === undefined) mediaIndex.set(key, (index = data.media.push(item) - 1));
      return { index, note: null };
    };
    for (const item of lines) {
      const { row, line } = item;
      const key = `${row.facets.split}\u0000${row.id}`;
      let c = caseIndex.get(key);
      if (c === undefined) {
        caseIndex.set(key, (c = data.caseDetails.length));
        data.caseDetails.push(caseDetailOf(line, row.facets as unknown as Record<string, unknown>, mediaFor));
        data.cases.split.push(splits.of(row.facets.split));
        data.cases.id.push(row.id);
        data.cases.level.push(row.facets.distractorLevel ?? -1);
        data.cases.horizon.push(row.facets.horizon ?? -1);
        data.cases.stage.push(row.facets.stage ? STAGES.indexOf(row.facets.stage) : -1);
        data.cases.query.push(String(line.query ?? '').slice(0, 240));
      }
      entries.push({ c, m: models.of(row.model), j: judges.of(row.judge), item });
    }
  });
  entries.sort((a, b) => a.c - b.c || a.m - b.m || a.j - b.j || a.item.row.repeat - b.item.row.repeat);
  for (const { c, m, j, item } of entries) {
    const { row } = item;
    data.rows.c.push(c);
    data.rows.m.push(m);
    data.rows.j.push(j);
    data.rows.s.push(statusCode(row));
    data.rows.e.push(errorBits(row));
    data.rows.b.push(row.behavior ? BROKEN_BEHAVIORS.indexOf(row.behavior) : -1);
    data.rows.g.push(row.grade === null ? -1 : Math.round(row.grade * 5));
    data.rows.r.push(row.repeat);
    data.rowSources.push(item);
  }
  return data;
}
