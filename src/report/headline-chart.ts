/**
 * A leaderboard's headline chart: one horizontal bar per (model, judge) for the ranking headline,
 * in rank order, with its 95 % interval as a whisker and the value at the bar's end. Inline SVG.
 */
import { escapeHtml } from './escape.js';
import { colorOf, px, svgDocument } from './figures/svg.js';
import { judgeLabel } from './labels.js';
import { fixed } from './numbers.js';
import type { ReportData } from './report-data.js';

const WIDTH = 760;
const LEFT = 250;
const RIGHT = 70;
const BAR = 18;
const GAP = 8;

/** The chart, or '' when no row has a value for the ranking headline. */
export function headlineChart(data: ReportData, label: string): string {
  const judges = new Set(data.scorecard.map((row) => row.judge));
  const rows = data.scorecard.flatMap((row) => {
    const cell = row.cells.find((entry) => entry.key === data.rankBy);
    if (!cell || cell.value === null) return [];
    const name = row.model + (judges.size > 1 ? ` · ${judgeLabel(row.judge)}` : '');
    return [{ name, cell: { value: cell.value, ci: cell.ci, n: cell.n } }];
  });
  if (rows.length === 0) return '';
  const top = 34;
  const height = top + rows.length * (BAR + GAP) + 30;
  const x = (value: number) => LEFT + ((WIDTH - LEFT - RIGHT) * value) / 100;
  const bars = rows.map(({ name, cell }, index) => {
    const y = top + index * (BAR + GAP);
    const tip = `${name}: ${fixed(cell.value, 1)} %${cell.ci ? ` (95 % CI ${fixed(cell.ci.lo, 1)}–${fixed(cell.ci.hi, 1)})` : ''}, n ${cell.n}`;
    const whisker = cell.ci
      ? `<line x1="${px(x(cell.ci.lo))}" x2="${px(x(cell.ci.hi))}" y1="${px(y + BAR / 2)}" y2="${px(y + BAR / 2)}" stroke="#1b1f24" stroke-width="1.5"/>`
      : '';
    return `<g><title>${escapeHtml(tip)}</title><text x="${LEFT - 6}" y="${px(y + BAR - 5)}" text-anchor="end">${escapeHtml(name.length > 38 ? `${name.slice(0, 37)}…` : name)}</text><rect x="${LEFT}" y="${px(y)}" width="${px(Math.max(0.5, x(cell.value) - LEFT))}" height="${BAR}" fill="${colorOf(index)}" opacity="0.85"/>${whisker}<text x="${px(x(Math.max(cell.value, cell.ci?.hi ?? 0)) + 4)}" y="${px(y + BAR - 5)}">${fixed(cell.value, 1)} %</text></g>`;
  });
  const axisY = top + rows.length * (BAR + GAP);
  const ticks = [0, 25, 50, 75, 100]
    .map(
      (tick) =>
        `<line x1="${px(x(tick))}" x2="${px(x(tick))}" y1="${top - 4}" y2="${axisY}" stroke="#d8dee4"/><text x="${px(x(tick))}" y="${axisY + 14}" text-anchor="middle">${tick} %</text>`,
    )
    .join('');
  return svgDocument(
    {
      id: 'headline-chart',
      title: `Ranking by ${label}`,
      description: `${label} per model in percent, best first, with 95 % intervals as whiskers.`,
      width: WIDTH,
      height,
    },
    ticks + bars.join(''),
  );
}
