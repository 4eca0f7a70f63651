/**
 * The case browser's data as inert `<script type="application/json">` blocks: a compact index
 * parsed at load, and per-case / per-answer details in gzip-compressed chunks decoded only when a
 * case is opened (so a 50,000-judgement report stays small and opens fast). Pure.
 */
import { gzipSync } from 'node:zlib';
import { rowDetailAt, type CaseBrowserData } from './cases.js';
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
  return gzipSync(Buffer.from(JSON.stringify(items), 'utf8'), { level: 1, memLevel: 9 }).toString('base64');
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** Every data block of the case browser, or just an empty index when there is no case data. */
export function casePayload(cases: CaseBrowserData | null): string {
  if (!cases) return '';
  const { caseDetails, rowSources, media, ...index } = cases;
  const parts = [jsonScript('apb-index', { ...index, chunks: { rows: ROW_CHUNK, cases: CASE_CHUNK } })];
  // Base64 holds only [A-Za-z0-9+/=]: a JSON string of it needs no escaping.
  const compressed = (id: string, items: readonly unknown[]) => `<script type="application/json" id="${id}">"${compressChunk(items)}"</script>`;
  chunks(caseDetails, CASE_CHUNK).forEach((chunk, number) => parts.push(compressed(`apb-cases-${number}`, chunk)));
  // Answer details are built one chunk at a time, so they die young instead of filling the old heap.
  for (let start = 0; start < rowSources.length; start += ROW_CHUNK) {
    const details = Array.from({ length: Math.min(ROW_CHUNK, rowSources.length - start) }, (_, offset) => rowDetailAt(cases, start + offset));
    parts.push(compressed(`apb-rows-${start / ROW_CHUNK}`, details));
  }
  parts.push(jsonScript('apb-media', media));
  return parts.join('\n');
}
