/**
 * Generic SVG charts, pure: grouped bars, 100 % stacked bars, lines (`line-chart.ts`, with a dashed
 * reference line) and a heatmap. Values carry <title> tooltips.
 */
import { escapeHtml } from '../escape.js';
import {
  detail,
  frameWithLegend,
  intervalText,
  tickLabel,
  tip,
  whisker,
  WIDTH,
  type ChartText,
  type Series,
} from './chart-parts.js';
import { colorOf, inner, px, svgDocument, ticks, xAxis, yAxis } from './svg.js';

export type { ChartText, Series } from './chart-parts.js';
export { lineChart } from './line-chart.js';

/** Vertical bars grouped by category, one bar per series (e.g. CR by stage per model). */
export function groupedBarChart(
  text: ChartText & {
    categories: string[];
    series: Series[];
    xLabel: string;
    yLabel: string;
    yMax?: number;
    format: (value: number) => string;
  },
): string {
  const { frame, legendMarkup } = frameWithLegend(
    text.series.map((series, index) => ({ name: series.name, color: colorOf(index) })),
    240,
  );
  const { width, height } = inner(frame);
  const max =
    text.yMax ??
    Math.max(
      1,
      ...text.series.flatMap((series) =>
        series.values.filter((value): value is number => value !== null),
      ),
    );
  const y = (value: number) => frame.top + height - (value / max) * height;
  const band = width / Math.max(1, text.categories.length);
  const barWidth = (band * 0.8) / Math.max(1, text.series.length);
  const bars = text.categories.flatMap((category, categoryIndex) =>
    text.series.flatMap((series, seriesIndex) => {
      const value = series.values[categoryIndex];
      if (value === null || value === undefined) return [];
      const x = frame.left + categoryIndex * band + band * 0.1 + seriesIndex * barWidth;
      const range = series.intervals?.[categoryIndex];
      const bar = `<rect x="${px(x)}" y="${px(y(value))}" width="${px(Math.max(1, barWidth - 1))}" height="${px(Math.max(0, frame.top + height - y(value)))}" fill="${colorOf(seriesIndex)}">${tip(`${series.name} · ${category}: ${text.format(value)}${intervalText(series, categoryIndex, text.format)}${detail(series, categoryIndex)}`)}</rect>`;
      return range ? [bar, whisker(x + barWidth / 2, y(range.lo), y(range.hi), '#222')] : [bar];
    }),
  );
  const labels = text.categories.map((category, index) => ({
    x: frame.left + (index + 0.5) * band,
    text: category,
  }));
  const body = [
    yAxis(frame, ticks(max), y, text.yLabel, tickLabel),
    ...bars,
    xAxis(frame, labels, text.xLabel),
    legendMarkup,
  ].join('\n');
  return svgDocument({ ...text, width: frame.width, height: frame.height }, body);
}

/** Horizontal bars of shares stacked to 100 % (e.g. each error's share of all flags per model). */
export function stackedShareChart(
  text: ChartText & {
    rows: { label: string; shares: (number | null)[]; note?: string }[];
    segments: string[];
    xLabel: string;
    format?: (value: number) => string;
  },
): string {
  const format = text.format ?? ((value: number) => `${value.toFixed(1)} %`);
  const left = 190;
  const rowHeight = 22;
  const { frame, legendMarkup } = frameWithLegend(
    text.segments.map((name, index) => ({ name, color: colorOf(index) })),
    Math.max(1, text.rows.length) * rowHeight,
    left,
  );
  const { width } = inner(frame);
  const parts: string[] = [];
  text.rows.forEach((row, rowIndex) => {
    const top = frame.top + rowIndex * rowHeight + 3;
    let offset = 0;
    const label = row.label.length > 28 ? `${row.label.slice(0, 27)}…` : row.label;
    parts.push(
      `<text x="${left - 6}" y="${top + 12}" text-anchor="end" fill="#333">${escapeHtml(label)}${tip(`${row.label}${row.note ? ` (${row.note})` : ''}`)}</text>`,
    );
    row.shares.forEach((share, index) => {
      if (!share) return;
      const segmentWidth = (share / 100) * width;
      parts.push(
        `<rect x="${px(left + offset)}" y="${top}" width="${px(segmentWidth)}" height="${rowHeight - 6}" fill="${colorOf(index)}">${tip(`${row.label} · ${text.segments[index]}: ${format(share)} of error flags`)}</rect>`,
      );
      offset += segmentWidth;
    });
    if (row.shares.every((share) => !share))
      parts.push(`<text x="${left + 4}" y="${top + 12}" fill="#666">no error flags</text>`);
  });
  const axis = xAxis(
    frame,
    [0, 25, 50, 75, 100].map((value) => ({ x: left + (value / 100) * width, text: `${value}` })),
    text.xLabel,
  );
  return svgDocument(
    { ...text, width: frame.width, height: frame.height },
    [...parts, axis, legendMarkup].join('\n'),
  );
}

/** A rows × columns grid of values (percent), darker for larger, each cell labelled with its value. */
export function heatmapChart(
  text: ChartText & {
    rows: string[];
    columns: string[];
    values: (number | null)[][];
    format: (value: number) => string;
  },
): string {
  const left = 190;
  const cell = {
    width: Math.floor((WIDTH - left - 16) / Math.max(1, text.columns.length)),
    height: 24,
  };
  const height = 32 + 20 + text.rows.length * cell.height + 12;
  const max = Math.max(1, ...text.values.flat().filter((value): value is number => value !== null));
  const parts = text.columns.map(
    (column, index) =>
      `<text x="${px(left + (index + 0.5) * cell.width)}" y="46" text-anchor="middle" font-weight="600">${escapeHtml(column)}</text>`,
  );
  text.rows.forEach((row, rowIndex) => {
    const top = 52 + rowIndex * cell.height;
    const label = row.length > 28 ? `${row.slice(0, 27)}…` : row;
    parts.push(
      `<text x="${left - 6}" y="${top + 16}" text-anchor="end">${escapeHtml(label)}${tip(row)}</text>`,
    );
    text.columns.forEach((column, index) => {
      const value = text.values[rowIndex]?.[index] ?? null;
      const strength = value === null ? 0 : value / max;
      const fill =
        value === null
          ? '#f4f4f4'
          : `rgb(${Math.round(255 - strength * 200)},${Math.round(255 - strength * 150)},255)`;
      const x = left + index * cell.width;
      parts.push(
        `<g><rect x="${x}" y="${top}" width="${cell.width - 2}" height="${cell.height - 2}" fill="${fill}"/><text x="${px(x + cell.width / 2)}" y="${top + 16}" text-anchor="middle" fill="${strength > 0.6 ? '#fff' : '#222'}">${value === null ? '–' : escapeHtml(text.format(value))}</text>${tip(`${row} · ${column}: ${value === null ? 'no data' : text.format(value)}`)}</g>`,
      );
    });
  });
  return svgDocument({ ...text, width: WIDTH, height }, parts.join('\n'));
}
