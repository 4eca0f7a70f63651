/** The paper comparison's cells as text rows, shared by the Markdown, HTML and CSV renderers. */
import { count, fixed } from './numbers.js';
import type { PaperCell } from './paper.js';

/** The columns every format prints for a compared cell. */
export const PAPER_HEADER = [
  'Table',
  'Row',
  'Column',
  'Ours',
  '95 % CI',
  'n',
  'Paper',
  'Exact',
  'Within CI',
  'Note',
];

const verdict = (value: boolean | null) => (value === null ? '–' : value ? 'yes' : 'no');

/** One compared cell as the texts of `PAPER_HEADER`. */
export function paperCellTexts(cell: PaperCell): string[] {
  const ci = cell.ci ? `${fixed(cell.ci.lo, 1)}–${fixed(cell.ci.hi, 1)}` : '–';
  return [
    cell.table,
    cell.row ?? '',
    cell.column,
    fixed(cell.oursRounded, cell.decimals),
    ci,
    cell.n === null ? '–' : count(cell.n),
    fixed(cell.paper, cell.decimals),
    verdict(cell.matches),
    verdict(cell.withinCi),
    cell.note ?? '',
  ];
}
