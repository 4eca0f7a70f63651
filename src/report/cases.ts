/**
 * The case browser's data: compact columns over cases and judgements (what the filters scan, so
 * 50,000 judgements filter in milliseconds) and the per-case and per-answer details shown when a
 * case is opened. Pure; media arrive already read (data: URLs) from the I/O layer.
 */
import { SPLITS, STAGES } from '../dataset/case.js';
import type { ResultRow } from '../metrics/result-row.js';
import { BROKEN_BEHAVIORS } from '../judge/verdict.js';
import type { Findings } from '../judge/checks/findings.js';
import { methodLabel } from './labels.js';
import { caseDetailOf, type CaseDetail } from './case-details.js';
import { rowDetailOf, type RowDetail } from './row-details.js';
import { refinementViewOf, type RefinementView } from './refinement-view.js';

/**
 * One judgement line with the row parsed from it. The I/O layer may hand in `line` as a getter that
 * reads the line again from its file each time, so a report never holds a run's lines: read it only
 * where it is used, once.
 */
export interface LineWithRow {
  readonly line: Record<string, unknown>;
  readonly row: ResultRow;
  /** The line's query, cut to the list's length, when the I/O layer kept it (so the list needs no read). */
  readonly queryHead?: string;
}

/** How much of a query the case list shows. */
export const QUERY_HEAD = 240;

/** An embedded file: a data: URL, or a note saying why it is not embedded. */
export interface MediaItem {
  dataUrl: string | null;
  note: string | null;
}

/** Row outcome codes of `rows.status`. */
export const ROW_STATUS = [
  'correct',
  'incorrect',
  'planner error',
  'parse error',
  'judge error',
] as const;

/** The browser's data: lookup lists, compact columns, details aligned with them, and media. */
export interface CaseBrowserData {
  models: string[];
  judges: string[];
  splits: string[];
  behaviors: string[];
  stages: string[];
  /** Refinement methods of the refined answers (Self_R+, …); `rows.x` indexes them. */
  methods: string[];
  /**
   * One entry per case (split + id): split index, id, distractor level / horizon / stage index (-1
   * none), query head.
   */
  cases: {
    split: number[];
    id: string[];
    level: number[];
    horizon: number[];
    stage: number[];
    query: string[];
  };
  /**
   * One entry per judgement: case, model, judge, ROW_STATUS index, E1–E6 bitmask, behaviour (-1
   * none), grade ×5 (-1 none), repeat, refinement method (-1 none).
   */
  rows: {
    c: number[];
    m: number[];
    j: number[];
    s: number[];
    e: number[];
    b: number[];
    g: number[];
    r: number[];
    x: number[];
  };
  /**
   * The first line of each case (aligned with `cases`) and its run; `caseDetailAt` turns one into
   * what the page shows, chunk by chunk when rendering.
   */
  caseSources: { source: LineWithRow; run: number }[];
  /**
   * The line behind each judgement (aligned with `rows`); `rowDetailAt` turns one into what the
   * page shows, chunk by chunk when rendering.
   */
  rowSources: LineWithRow[];
  /** Embedded files, in the order the case details first refer to them (filled as details are made). */
  media: MediaItem[];
  /** The media read by the I/O layer, by `mediaKey(run, path)`, and the index each got in `media`. */
  mediaSource: ReadonlyMap<string, MediaItem>;
  mediaIndex: Map<string, number>;
}

/**
 * What the page shows for judgement `index` of the browser data; a refined answer also carries its
 * refinement (before, critiques, after).
 */
export function rowDetailAt(
  data: CaseBrowserData,
  index: number,
  line?: Record<string, unknown>,
): RowDetail & { refinement: RefinementView | null } {
  const source = data.rowSources[index]!;
  const read = line ?? source.line;
  const apb =
    read.apb && typeof read.apb === 'object' ? (read.apb as Record<string, unknown>) : null;
  // The line's full findings (a row keeps only what the metrics read).
  const findings =
    apb?.findings && typeof apb.findings === 'object' ? (apb.findings as Findings) : null;
  return { ...rowDetailOf(read, findings), refinement: refinementViewOf(apb) };
}

/** What the page shows for case `index`; embedded files get their place in `data.media` as details are made. */
export function caseDetailAt(
  data: CaseBrowserData,
  index: number,
  line?: Record<string, unknown>,
): CaseDetail {
  const { source, run } = data.caseSources[index]!;
  const mediaFor = (path: string) => {
    const key = mediaKey(run, path);
    const item = data.mediaSource.get(key);
    if (!item) return { index: null, note: 'not embedded: the dataset file was not found' };
    if (!item.dataUrl) return { index: null, note: item.note };
    let position = data.mediaIndex.get(key);
    if (position === undefined) data.mediaIndex.set(key, (position = data.media.push(item) - 1));
    return { index: position, note: null };
  };
  return caseDetailOf(
    line ?? source.line,
    source.row.facets as unknown as Record<string, unknown>,
    mediaFor,
  );
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

/**
 * Builds the browser data from every run's lines (runs in order), sorted by case in dataset order
 * (split, line in its file), then model, judge and repeat. Reads each case's first line once (its
 * query); details are made later, chunk by chunk.
 */
export function buildCaseBrowser(
  runs: readonly (readonly LineWithRow[])[],
  media: ReadonlyMap<string, MediaItem> = new Map(),
): CaseBrowserData {
  const index: Indexes = {
    models: indexer(),
    judges: indexer(),
    splits: indexer(SPLITS),
    methods: indexer(),
  };
  const data = emptyBrowser(index, media);
  const caseIndex = new Map<string, number>();
  const entries: Entry[] = [];
  // Dataset order: split, then the case's line in its split file (when the lines record it), then first seen.
  const caseLine: number[] = [];
  runs.forEach((lines, runIndex) => {
    for (const item of lines) {
      const { row } = item;
      const key = `${row.facets.split}\u0000${row.id}`;
      let c = caseIndex.get(key);
      if (c === undefined) {
        caseIndex.set(key, (c = data.caseSources.length));
        addCase(data, item, runIndex, index.splits);
        caseLine.push(row.datasetLine ?? Number.MAX_SAFE_INTEGER);
      }
      entries.push({ c, m: index.models.of(row.model), j: index.judges.of(row.judge), item });
    }
  });
  const refined = (entry: { item: LineWithRow }) => (entry.item.row.refinement ? 1 : 0);
  const inDatasetOrder = (a: number, b: number) =>
    data.cases.split[a]! - data.cases.split[b]! || caseLine[a]! - caseLine[b]! || a - b;
  entries.sort(
    (a, b) =>
      inDatasetOrder(a.c, b.c) ||
      a.m - b.m ||
      a.j - b.j ||
      refined(a) - refined(b) ||
      a.item.row.repeat - b.item.row.repeat,
  );
  for (const entry of entries) addRow(data, entry, index.methods);
  return data;
}

type Indexer = ReturnType<typeof indexer>;
type Indexes = { models: Indexer; judges: Indexer; splits: Indexer; methods: Indexer };
type Entry = { c: number; m: number; j: number; item: LineWithRow };

/** A browser with its name lists (filled as lines are read) and no case or row yet. */
function emptyBrowser(index: Indexes, media: ReadonlyMap<string, MediaItem>): CaseBrowserData {
  return {
    models: index.models.list,
    judges: index.judges.list,
    splits: index.splits.list,
    behaviors: [...BROKEN_BEHAVIORS],
    stages: [...STAGES],
    methods: index.methods.list,
    cases: { split: [], id: [], level: [], horizon: [], stage: [], query: [] },
    rows: { c: [], m: [], j: [], s: [], e: [], b: [], g: [], r: [], x: [] },
    caseSources: [],
    rowSources: [],
    media: [],
    mediaSource: media,
    mediaIndex: new Map(),
  };
}

/** A case's columns, from the first line that has it. */
function addCase(data: CaseBrowserData, item: LineWithRow, run: number, splits: Indexer): void {
  const { row } = item;
  data.caseSources.push({ source: item, run });
  data.cases.split.push(splits.of(row.facets.split));
  data.cases.id.push(row.id);
  data.cases.level.push(row.facets.distractorLevel ?? -1);
  data.cases.horizon.push(row.facets.horizon ?? -1);
  data.cases.stage.push(row.facets.stage ? STAGES.indexOf(row.facets.stage) : -1);
  data.cases.query.push(item.queryHead ?? String(item.line.query ?? '').slice(0, QUERY_HEAD));
}

/** A row's columns: case, model, judge, status, error bits, behaviour, grade, repeat, method. */
function addRow(data: CaseBrowserData, entry: Entry, methods: Indexer): void {
  const { c, m, j, item } = entry;
  const { row } = item;
  data.rows.c.push(c);
  data.rows.m.push(m);
  data.rows.j.push(j);
  data.rows.s.push(statusCode(row));
  data.rows.e.push(errorBits(row));
  data.rows.b.push(row.behavior ? BROKEN_BEHAVIORS.indexOf(row.behavior) : -1);
  data.rows.g.push(row.grade === null ? -1 : Math.round(row.grade * 5));
  data.rows.r.push(row.repeat);
  data.rows.x.push(
    row.refinement
      ? methods.of(methodLabel({ ...row.refinement, rounds: row.refinement.rounds ?? 1 }))
      : -1,
  );
  data.rowSources.push(item);
}
