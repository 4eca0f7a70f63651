/** The report formats: one renderer per id (`keyof typeof FORMATS` is the `--format` value). CSV renders one file per table. */
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import type { ReportData } from './report-data.js';

/** Each format's renderer: text, or for CSV a map of file name → text. */
export const FORMATS = {
  md: renderMarkdown,
  csv: renderCsv,
  json: renderJson,
  html: (data: ReportData) => renderHtml(data),
} satisfies Record<string, (data: ReportData) => string | Record<string, string>>;

/** A `--format` value. */
export type FormatId = keyof typeof FORMATS;

/** True when `value` names a format. */
export function isFormatId(value: string): value is FormatId {
  return Object.hasOwn(FORMATS, value);
}
