/**
 * "Export the filtered list": every matching judgement (all pages) as CSV or JSONL, downloaded
 * from a Blob so no request leaves the page.
 */
import { $, el } from './dom.js';
import { errorText, facetText } from './labels.js';
import { data, STATUS, view } from './store.js';

const FIELDS = [
  ...['case_id', 'split', 'model', 'judge', 'repeat', 'outcome'],
  ...['grade', 'errors', 'behaviour', 'facet', 'query'],
] as const;
type ExportRecord = Record<(typeof FIELDS)[number], string | number | null>;

function exportRecord(i: number): ExportRecord {
  const R = data.rows;
  const C = data.cases;
  const c = R.c[i]!;
  return {
    case_id: C.id[c]!,
    split: data.splits[C.split[c]!]!,
    model: data.models[R.m[i]!]!,
    judge: data.judges[R.j[i]!]!,
    repeat: R.r[i]!,
    outcome: STATUS[R.s[i]!]!,
    grade: R.g[i]! < 0 ? null : R.g[i]! / 5,
    errors: errorText(R.e[i]!),
    behaviour: R.b[i]! >= 0 ? data.behaviors[R.b[i]!]! : null,
    facet: facetText(c),
    query: C.query[c]!,
  };
}

/** A CSV field; text a spreadsheet would run as a formula gets a leading `'`. */
function csvField(value: string | number | null): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function exportText(kind: 'csv' | 'jsonl'): string {
  const records = view.matches.map(exportRecord);
  if (kind === 'jsonl')
    return (
      records.map((record) => JSON.stringify(record)).join('\n') + (records.length ? '\n' : '')
    );
  const lines = records.map((record) => FIELDS.map((name) => csvField(record[name])).join(','));
  return `${[FIELDS.join(','), ...lines].join('\r\n')}\r\n`;
}

function download(kind: 'csv' | 'jsonl'): void {
  const type = kind === 'csv' ? 'text/csv' : 'application/x-ndjson';
  const blob = new Blob([exportText(kind)], { type });
  const link = el('a', { download: `apb-cases.${kind}` }) as HTMLAnchorElement;
  link.href = URL.createObjectURL(blob);
  document.body.appendChild(link);
  link.click();
  setTimeout(() => {
    URL.revokeObjectURL(link.href);
    link.remove();
  }, 1000);
}

/** Wires the two export buttons. */
export function setupExport(): void {
  $('export-csv').addEventListener('click', () => download('csv'));
  $('export-jsonl').addEventListener('click', () => download('jsonl'));
}
