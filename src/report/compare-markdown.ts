/** `apb compare`'s Markdown: the paired table overall and per split, then the cases that differ. */
import type { PairedComparison } from '../metrics/paired.js';
import type { CaseVerdict, RunComparison } from '../metrics/run-comparison.js';
import { fixed } from './numbers.js';

const pct = (part: number, whole: number) => (whole > 0 ? fixed((100 * part) / whole, 1) : '–');

function row(name: string, c: PairedComparison): string {
  const crA = pct(c.both + c.a_only, c.shared);
  const crB = pct(c.both + c.b_only, c.shared);
  const cells = [name, c.shared, crA, crB, c.a_only, c.b_only, c.p_value.toPrecision(3), c.verdict];
  return `| ${cells.join(' | ')} |`;
}

function verdictText(v: CaseVerdict): string {
  const grade = v.grade === null ? '' : ` (grade ${fixed(v.grade, 1)})`;
  const status = v.status === 'ok' ? '' : `, ${v.status}`;
  return `${v.correct ? 'correct' : 'not correct'}${grade}${status}`;
}

/** The comparison as Markdown: the paired table overall and per split, then the differing cases. */
export function compareMarkdown(comparison: RunComparison): string {
  const { a, b } = comparison;
  const lines = [
    `# apb compare`,
    '',
    `A: ${a.label} (${a.cases} judged) · B: ${b.label} (${b.cases} judged).`,
    'Cases pair on (split, id, repeat); p is the two-sided exact McNemar test on the cases',
    'only one side got right.',
    '',
    '| cases | shared | A CR % | B CR % | only A right | only B right | p | verdict |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    row('all', comparison.overall),
    ...comparison.splits.map(({ split, comparison: c }) => row(split, c)),
    '',
    `## Cases on which they differ (${comparison.differences.length})`,
    '',
  ];
  if (comparison.differences.length === 0)
    lines.push('None: both runs agree on every shared case.');
  else {
    lines.push('| split | id | repeat | A | B |', '|---|---|---:|---|---|');
    for (const d of comparison.differences)
      lines.push(
        `| ${d.split} | ${d.id} | ${d.repeat} | ${verdictText(d.a)} | ${verdictText(d.b)} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}
