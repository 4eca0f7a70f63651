/**
 * Generic SVG charts, pure: grouped bars, 100 % stacked bars, lines (with a dashed reference line)
 * and a heatmap. Values carry <title> tooltips.
 */
import { escapeHtml } from '../escape.js';
import {
  colorOf,
  inner,
  legend,
  markerOf,
  marker,
  px,
  svgDocument,
  ticks,
  xAxis,
  yAxis,
  type Frame,
  type MarkerShape,
} from './svg.js';

/** One data series: a name and a value per category (null = no data). */
export interface Series {
  name: string;
  values: (number | null)[];
  /** Extra tooltip text per category (e.g. "n 300"). */
  notes?: (string | null)[];
  /** A 95 % interval per category, drawn as a whisker through the point or bar. */
  intervals?: ({ lo: number; hi: number } | null)[];
}

/** A vertical 95 % whisker from lo to hi at x (with caps), in the series' colour. */
function whisker(x: number, yLo: number, yHi: number, color: string): string {
  return `<path d="M${px(x)} ${px(yLo)}V${px(yHi)}M${px(x - 3)} ${px(yLo)}H${px(x + 3)}M${px(x - 3)} ${px(yHi)}H${px(x + 3)}" stroke="${color}" stroke-width="1.2" fill="none" opacity="0.75"/>`;
}

const intervalText = (series: Series, index: number, format: (value: number) => string) => {
  const range = series.intervals?.[index];
  return range ? `, 95 % CI ${format(range.lo)}–${format(range.hi)}` : '';
};

/** What every chart needs to be announced and labelled. */
export interface ChartText {
  id: string;
  title: string;
  description: string;
}

const WIDTH = 760;
const tip = (text: string) => `<title>${escapeHtml(text)}</title>`;
/** Tick labels: integers plainly, other values with one decimal (the unit is in the axis title). */
const tickLabel = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
const detail = (series: Series, index: number) =>
  series.notes?.[index] ? ` (${series.notes[index]})` : '';

function frameWithLegend(
  names: { name: string; color: string; dashed?: boolean; marker?: MarkerShape }[],
  plotHeight: number,
  left = 64,
  right = 16,
): { frame: Frame; legendMarkup: string } {
  const probe = legend(names, left, 0, WIDTH - left - 16);
  const frame: Frame = {
    width: WIDTH,
    height: 32 + plotHeight + 44 + probe.height + 8,
    left,
    right,
    top: 32,
    bottom: 44 + probe.height + 8,
  };
  const placed = legend(names, left, 32 + plotHeight + 44, WIDTH - left - 16);
  return { frame, legendMarkup: placed.markup };
}

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

/** Lines over ordered categories, with an optional dashed reference line (e.g. the overall average). */
export function lineChart(
  text: ChartText & {
    categories: string[];
    series: Series[];
    xLabel: string;
    yLabel: string;
    yMax?: number;
    format: (value: number) => string;
    reference?: { value: number; label: string };
  },
): string {
  const items: { name: string; color: string; dashed?: boolean; marker?: MarkerShape }[] =
    text.series.map((series, index) => ({
      name: series.name,
      color: colorOf(index),
      marker: markerOf(index),
    }));
  if (text.reference) items.push({ name: text.reference.label, color: '#D62728', dashed: true });
  const { frame, legendMarkup } = frameWithLegend(items, 240, 64, 150);
  const { width, height } = inner(frame);
  const values = text.series.flatMap((series) =>
    [...series.values, ...(series.intervals ?? []).map((range) => range?.hi ?? null)].filter(
      (value): value is number => value !== null,
    ),
  );
  const max = text.yMax ?? Math.max(1, ...values, text.reference?.value ?? 0);
  const y = (value: number) => frame.top + height - (value / max) * height;
  const step = width / Math.max(1, text.categories.length);
  // Each series is nudged sideways a little, so equal values at one category do not hide each other.
  const dodge = (seriesIndex: number) =>
    text.series.length > 1
      ? (seriesIndex - (text.series.length - 1) / 2) *
        Math.min(8, (step * 0.4) / text.series.length)
      : 0;
  const x = (index: number, seriesIndex: number) =>
    frame.left + (index + 0.5) * step + dodge(seriesIndex);
  const parts = [yAxis(frame, ticks(max), y, text.yLabel, tickLabel)];
  const ends: { y: number; name: string; color: string }[] = [];
  text.series.forEach((series, seriesIndex) => {
    const color = colorOf(seriesIndex);
    const points = series.values.map((value, index) =>
      value === null ? null : { x: x(index, seriesIndex), y: y(value), value, index },
    );
    const segments: string[] = [];
    let current: string[] = [];
    for (const point of points) {
      if (point) current.push(`${px(point.x)},${px(point.y)}`);
      else if (current.length > 0) (segments.push(current.join(' ')), (current = []));
    }
    if (current.length > 0) segments.push(current.join(' '));
    for (const segment of segments)
      parts.push(
        `<polyline points="${segment}" fill="none" stroke="${color}" stroke-width="2" opacity="0.9"/>`,
      );
    for (const point of points) {
      if (!point) continue;
      const range = series.intervals?.[point.index];
      if (range) parts.push(whisker(point.x, y(range.lo), y(range.hi), color));
      parts.push(
        marker(
          markerOf(seriesIndex),
          point.x,
          point.y,
          color,
          tip(
            `${series.name} · ${text.categories[point.index]}: ${text.format(point.value)}${intervalText(series, point.index, text.format)}${detail(series, point.index)}`,
          ),
        ),
      );
    }
    const last = points.filter((point) => point !== null).at(-1);
    if (last) ends.push({ y: last.y, name: series.name, color });
  });
  parts.push(...directLabels(ends, frame.left + width + 8, frame.top, frame.top + height));
  if (text.reference) {
    const level = y(text.reference.value);
    parts.push(
      `<line x1="${frame.left}" x2="${frame.left + width}" y1="${px(level)}" y2="${px(level)}" stroke="#D62728" stroke-width="2" stroke-dasharray="6 4">${tip(`${text.reference.label}: ${text.format(text.reference.value)}`)}</line>`,
    );
  }
  parts.push(
    xAxis(
      frame,
      text.categories.map((category, index) => ({
        x: x(index, (text.series.length - 1) / 2),
        text: category,
      })),
      text.xLabel,
    ),
    legendMarkup,
  );
  return svgDocument({ ...text, width: frame.width, height: frame.height }, parts.join('\n'));
}

/** Series names at the right end of their lines, pushed apart so none overlaps another. */
function directLabels(
  ends: { y: number; name: string; color: string }[],
  x: number,
  top: number,
  bottom: number,
): string[] {
  const gap = 13;
  const placed = [...ends].sort((a, b) => a.y - b.y).map((end) => ({ ...end, at: end.y }));
  for (let index = 1; index < placed.length; index += 1)
    placed[index]!.at = Math.max(placed[index]!.at, placed[index - 1]!.at + gap);
  const overflow = (placed.at(-1)?.at ?? 0) - bottom;
  if (overflow > 0) for (const label of placed) label.at = Math.max(top, label.at - overflow);
  return placed.map((label) => {
    const name = label.name.length > 20 ? `${label.name.slice(0, 19)}…` : label.name;
    return `<text class="direct-label" x="${px(x)}" y="${px(label.at + 4)}" fill="${label.color}" font-size="11">${escapeHtml(name)}${tip(label.name)}</text>`;
  });
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
