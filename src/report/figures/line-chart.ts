/** The SVG line chart: lines over ordered categories, whiskers, direct labels, a dashed reference. */
import { escapeHtml } from '../escape.js';
import {
  detail,
  frameWithLegend,
  intervalText,
  tickLabel,
  tip,
  whisker,
  type ChartText,
  type Series,
} from './chart-parts.js';
import {
  colorOf,
  inner,
  markerOf,
  marker,
  px,
  svgDocument,
  ticks,
  xAxis,
  yAxis,
  type MarkerShape,
} from './svg.js';

/** What a line chart is drawn from. */
export type LineChartText = ChartText & {
  categories: string[];
  series: Series[];
  xLabel: string;
  yLabel: string;
  yMax?: number;
  format: (value: number) => string;
  reference?: { value: number; label: string };
};

type Point = { x: number; y: number; value: number; index: number };
type End = { y: number; name: string; color: string };

/** Lines over ordered categories, with an optional dashed reference line (e.g. the overall average). */
export function lineChart(text: LineChartText): string {
  const { frame, legendMarkup } = frameWithLegend(legendItems(text), 240, 64, 150);
  const { width, height } = inner(frame);
  const max = text.yMax ?? Math.max(1, ...plottedValues(text.series), text.reference?.value ?? 0);
  const y = (value: number) => frame.top + height - (value / max) * height;
  const x = placer(text, frame.left, width);
  const parts = [yAxis(frame, ticks(max), y, text.yLabel, tickLabel)];
  const ends: End[] = [];
  text.series.forEach((series, seriesIndex) => {
    const points = series.values.map((value, index) =>
      value === null ? null : { x: x(index, seriesIndex), y: y(value), value, index },
    );
    parts.push(...seriesMarkup(text, series, seriesIndex, points, y));
    const last = points.filter((point) => point !== null).at(-1);
    if (last) ends.push({ y: last.y, name: series.name, color: colorOf(seriesIndex) });
  });
  parts.push(...directLabels(ends, frame.left + width + 8, frame.top, frame.top + height));
  if (text.reference) parts.push(referenceLine(text, text.reference, frame.left, width, y));
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

/** One legend entry per series, and the reference line's when there is one. */
function legendItems(
  text: LineChartText,
): { name: string; color: string; dashed?: boolean; marker?: MarkerShape }[] {
  const items: { name: string; color: string; dashed?: boolean; marker?: MarkerShape }[] =
    text.series.map((series, index) => ({
      name: series.name,
      color: colorOf(index),
      marker: markerOf(index),
    }));
  if (text.reference) items.push({ name: text.reference.label, color: '#D62728', dashed: true });
  return items;
}

/** Every value the y axis must reach: the points and the tops of their intervals. */
const plottedValues = (series: readonly Series[]): number[] =>
  series.flatMap((one) =>
    [...one.values, ...(one.intervals ?? []).map((range) => range?.hi ?? null)].filter(
      (value): value is number => value !== null,
    ),
  );

/** The x of a category for a series. */
function placer(text: LineChartText, left: number, width: number) {
  const step = width / Math.max(1, text.categories.length);
  // Each series is nudged sideways a little, so equal values at one category do not hide each other.
  const dodge = (seriesIndex: number) =>
    text.series.length > 1
      ? (seriesIndex - (text.series.length - 1) / 2) *
        Math.min(8, (step * 0.4) / text.series.length)
      : 0;
  return (index: number, seriesIndex: number) => left + (index + 0.5) * step + dodge(seriesIndex);
}

/** A series' polylines (broken where a value is missing), then its whiskers and markers. */
function seriesMarkup(
  text: LineChartText,
  series: Series,
  seriesIndex: number,
  points: (Point | null)[],
  y: (value: number) => number,
): string[] {
  const color = colorOf(seriesIndex);
  const parts = segmentsOf(points).map(
    (segment) =>
      `<polyline points="${segment}" fill="none" stroke="${color}" stroke-width="2" opacity="0.9"/>`,
  );
  for (const point of points) {
    if (!point) continue;
    const range = series.intervals?.[point.index];
    if (range) parts.push(whisker(point.x, y(range.lo), y(range.hi), color));
    const label =
      `${series.name} · ${text.categories[point.index]}: ${text.format(point.value)}` +
      `${intervalText(series, point.index, text.format)}${detail(series, point.index)}`;
    parts.push(marker(markerOf(seriesIndex), point.x, point.y, color, tip(label)));
  }
  return parts;
}

/** The runs of consecutive points, each as an SVG `points` list. */
function segmentsOf(points: readonly (Point | null)[]): string[] {
  const segments: string[] = [];
  let current: string[] = [];
  for (const point of points) {
    if (point) current.push(`${px(point.x)},${px(point.y)}`);
    else if (current.length > 0) (segments.push(current.join(' ')), (current = []));
  }
  if (current.length > 0) segments.push(current.join(' '));
  return segments;
}

/** The dashed reference line across the plot, with its tooltip. */
function referenceLine(
  text: LineChartText,
  reference: { value: number; label: string },
  left: number,
  width: number,
  y: (value: number) => number,
): string {
  const level = px(y(reference.value));
  const title = tip(`${reference.label}: ${text.format(reference.value)}`);
  return (
    `<line x1="${left}" x2="${left + width}" y1="${level}" y2="${level}" stroke="#D62728" ` +
    `stroke-width="2" stroke-dasharray="6 4">${title}</line>`
  );
}

/** Series names at the right end of their lines, pushed apart so none overlaps another. */
function directLabels(ends: End[], x: number, top: number, bottom: number): string[] {
  const gap = 13;
  const placed = [...ends].sort((a, b) => a.y - b.y).map((end) => ({ ...end, at: end.y }));
  for (let index = 1; index < placed.length; index += 1)
    placed[index]!.at = Math.max(placed[index]!.at, placed[index - 1]!.at + gap);
  const overflow = (placed.at(-1)?.at ?? 0) - bottom;
  if (overflow > 0) for (const label of placed) label.at = Math.max(top, label.at - overflow);
  return placed.map((label) => {
    const name = label.name.length > 20 ? `${label.name.slice(0, 19)}…` : label.name;
    return (
      `<text class="direct-label" x="${px(x)}" y="${px(label.at + 4)}" fill="${label.color}" ` +
      `font-size="11">${escapeHtml(name)}${tip(label.name)}</text>`
    );
  });
}
