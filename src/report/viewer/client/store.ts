/**
 * The page's data and state: the index and config blocks, the view state (kept in the URL hash so
 * a view can be bookmarked), the filtered list, and the lazily decoded details chunks.
 */
import { readJson } from './dom.js';
import type { AnswerDetail, CaseDetail, MediaItem, PageConfig, PageIndex } from './page-data.js';

const EMPTY_INDEX: PageIndex = {
  models: [],
  judges: [],
  splits: [],
  behaviors: [],
  stages: [],
  methods: [],
  cases: { split: [], id: [], level: [], horizon: [], stage: [], query: [] },
  rows: { c: [], m: [], j: [], s: [], e: [], b: [], g: [], r: [], x: [] },
  chunks: { rows: 1, cases: 1 },
};

const loaded = readJson<PageIndex>('apb-index');
/** Whether the page carries case data at all. */
export const hasData = loaded !== null;
/** The compact index (empty when the page has no case data). */
export const data: PageIndex = loaded ?? EMPTY_INDEX;
/** The page's config block. */
export const config: PageConfig = readJson<PageConfig>('apb-config') ?? {};

/** Outcome labels and badge classes by `rows.s` code. */
export const STATUS = ['correct', 'incorrect', 'planner error', 'parse error', 'judge error'];
export const STATUS_CLASS = ['ok', 'bad', 'fail', 'fail', 'fail'];
/** Judgements per list page. */
export const PAGE = 50;

/** The view: filters (as select values), sort, page and the open / compared answers (-1 none). */
export interface ViewState {
  split: string;
  model: string;
  judge: string;
  outcome: string;
  error: string;
  behavior: string;
  level: string;
  q: string;
  sort: string;
  dir: string;
  page: number;
  open: number;
  compare: number;
}

/** The filters' keys, in the order the filter bar shows them. */
export const FILTER_KEYS = [
  'split',
  'model',
  'judge',
  'outcome',
  'error',
  'behavior',
  'level',
] as const;
const TEXT_KEYS = [...FILTER_KEYS, 'q', 'sort', 'dir'] as const;
const NUMBER_KEYS = ['page', 'open', 'compare'] as const;

/** The live view state and what it selects. */
export const view = {
  state: {
    ...{ split: '', model: '', judge: '', outcome: '', error: '', behavior: '', level: '' },
    ...{ q: '', sort: '', dir: '', page: 0, open: -1, compare: -1 },
  } as ViewState,
  /** Row indexes of the judgements the filters keep, in list order. */
  matches: [] as number[],
  /** Row indexes of every answer, by case. */
  byCase: [] as number[][],
};

/** Reads the state from the URL hash. */
export function readState(): void {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const key of TEXT_KEYS) {
    const value = params.get(key);
    if (value !== null) view.state[key] = value;
  }
  for (const key of NUMBER_KEYS) {
    const value = params.get(key);
    if (value !== null) view.state[key] = Number(value) || (key === 'page' ? 0 : -1);
  }
}

/** Writes the state into the URL hash (replaceState: no history entry, no hashchange). */
export function writeState(): void {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(view.state))
    if (value !== '' && value !== -1 && !(key === 'page' && value === 0))
      params.set(key, String(value));
  history.replaceState(null, '', `#${params.toString()}`);
}

const chunkCache = new Map<string, Promise<unknown[]>>();

function inflate(base64: string): Promise<string> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}

/** A details chunk, decoded once (the 64 most recent are kept). */
function loadChunk(kind: 'rows' | 'cases', number: number): Promise<unknown[]> {
  const key = kind + number;
  let promise = chunkCache.get(key);
  if (!promise) {
    const node = document.getElementById(`apb-${kind}-${number}`);
    promise = node
      ? inflate(JSON.parse(node.textContent ?? '""') as string).then(
          (text) => JSON.parse(text) as unknown[],
        )
      : Promise.reject(new Error(`missing data chunk ${key}`));
    chunkCache.set(key, promise);
    if (chunkCache.size > 64) chunkCache.delete(chunkCache.keys().next().value!);
  }
  return promise;
}

/** The details of answer `row`. */
export function rowDetail(row: number): Promise<AnswerDetail> {
  const size = data.chunks.rows;
  return loadChunk('rows', Math.floor(row / size)).then((list) => list[row % size] as AnswerDetail);
}

/** The details of case `c`. */
export function caseDetail(c: number): Promise<CaseDetail> {
  const size = data.chunks.cases;
  return loadChunk('cases', Math.floor(c / size)).then((list) => list[c % size] as CaseDetail);
}

let media: MediaItem[] | null = null;
/** An embedded file of the page, or null. */
export function mediaItem(index: number): MediaItem | null {
  if (media === null) media = readJson<MediaItem[]>('apb-media') ?? [];
  return media[index] ?? null;
}
