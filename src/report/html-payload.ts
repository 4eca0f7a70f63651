/**
 * The case browser's data as inert `<script type="application/json">` blocks: a compact index
 * parsed at load, and per-case / per-answer details in gzip-compressed chunks decoded only when a
 * case is opened (so a 50,000-judgement report stays small and opens fast). Pure.
 */
import { gzipSync } from 'node:zlib';
import { caseDetailAt, rowDetailAt, type CaseBrowserData } from './cases.js';
import { jsonForScript } from './escape.js';

/** Answers per details chunk. */
export const ROW_CHUNK = 200;
/** Cases per details chunk. */
export const CASE_CHUNK = 100;

/** One inert JSON block; the id is ours, the content is escaped by `jsonForScript`. */
export function jsonScript(id: string, value: unknown): string {
  return `<script type="application/json" id="${id}">${jsonForScript(value)}</script>`;
}

/** A list compressed as base64 gzip of its JSON (decoded in the page with DecompressionStream). */
export function compressChunk(items: readonly unknown[]): string {
  return gzipSync(Buffer.from(JSON.stringify(items), 'utf8'), { level: 1, memLevel: 9 }).toString(
    'base64',
  );
}

/** Every data block of the case browser, or just an empty index when there is no case data. */
export function casePayload(cases: CaseBrowserData | null): string {
  if (!cases) return '';
  return [...casePayloadParts(cases)].join('\n');
}

/**
 * The same blocks one at a time, so a writer can stream them to a file. Case and answer details are
 * made and compressed one chunk at a time, in one walk over the answers (each line read once, for
 * its answer and, when it opens a case, for the case): they die young instead of filling the heap,
 * and a report's memory does not grow with its run. Blocks are found by id, so case and answer
 * chunks may interleave. The media block comes last, once every case detail has placed its files.
 */
export function* casePayloadParts(cases: CaseBrowserData): Generator<string> {
  const { caseSources, rowSources, media } = cases;
  const index = {
    models: cases.models,
    judges: cases.judges,
    splits: cases.splits,
    behaviors: cases.behaviors,
    stages: cases.stages,
    methods: cases.methods,
    cases: cases.cases,
    rows: cases.rows,
  };
  yield jsonScript('apb-index', { ...index, chunks: { rows: ROW_CHUNK, cases: CASE_CHUNK } });
  // Base64 holds only [A-Za-z0-9+/=]: a JSON string of it needs no escaping.
  const compressed = (id: string, items: readonly unknown[]) =>
    `<script type="application/json" id="${id}">"${compressChunk(items)}"</script>`;
  let caseDetails: unknown[] = [];
  let rowDetails: unknown[] = [];
  let nextCase = 0;
  for (let row = 0; row < rowSources.length; row += 1) {
    const source = rowSources[row]!;
    const line = source.line;
    // Rows are sorted by case: the cases up to this row's are due now (a case's first line is usually this very line).
    for (; nextCase <= cases.rows.c[row]!; nextCase += 1) {
      caseDetails.push(
        caseDetailAt(cases, nextCase, caseSources[nextCase]!.source === source ? line : undefined),
      );
      if (caseDetails.length === CASE_CHUNK) {
        yield compressed(`apb-cases-${(nextCase + 1) / CASE_CHUNK - 1}`, caseDetails);
        caseDetails = [];
      }
    }
    rowDetails.push(rowDetailAt(cases, row, line));
    if (rowDetails.length === ROW_CHUNK) {
      yield compressed(`apb-rows-${(row + 1) / ROW_CHUNK - 1}`, rowDetails);
      rowDetails = [];
    }
  }
  for (; nextCase < caseSources.length; nextCase += 1)
    caseDetails.push(caseDetailAt(cases, nextCase));
  if (caseDetails.length > 0)
    yield compressed(`apb-cases-${Math.floor((caseSources.length - 1) / CASE_CHUNK)}`, caseDetails);
  if (rowDetails.length > 0)
    yield compressed(`apb-rows-${Math.floor((rowSources.length - 1) / ROW_CHUNK)}`, rowDetails);
  yield jsonScript('apb-media', media);
}
