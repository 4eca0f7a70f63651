/**
 * SVG primitives for the report's figures: the document wrapper (accessible title and description),
 * axes, legend, palette.
 */
import { escapeHtml } from '../escape.js';

/** Colours for series, distinguishable and colour-blind friendly (Okabe–Ito first, then Tableau). */
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000',
  '#8C564B',
  '#7F7F7F',
  '#BCBD22',
  '#17BECF',
  '#9467BD',
  '#FF9DA7',
];

/** The colour of series `index`. */
export function colorOf(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

/** Plot area inside the figure. */
export interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The inner width and height of a frame. */
export function inner(frame: Frame): { width: number; height: number } {
  return {
    width: frame.width - frame.left - frame.right,
    height: frame.height - frame.top - frame.bottom,
  };
}

/** A rounded coordinate for compact output. */
export function px(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** Wraps a figure body in an `<svg>` with a title and description that screen readers announce. */
export function svgDocument(
  options: { id: string; title: string; description: string; width: number; height: number },
  body: string,
): string {
  const id = options.id.replace(/[^A-Za-z0-9_-]/g, '-');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="figure" id="${id}" viewBox="0 0 ${options.width} ${options.height}" width="${options.width}" height="${options.height}" role="img" aria-labelledby="${id}-title ${id}-desc" font-family="system-ui, sans-serif" font-size="12">`,
    `<title id="${id}-title">${escapeHtml(options.title)}</title>`,
    `<desc id="${id}-desc">${escapeHtml(options.description)}</desc>`,
    `<text x="${options.width / 2}" y="18" text-anchor="middle" font-size="14" font-weight="600">${escapeHtml(options.title)}</text>`,
    body,
    '</svg>',
  ].join('\n');
}

/** "Nice" tick values from 0 to at least `max`. */
export function ticks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step =
    [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ??
    raw;
  const values: number[] = [];
  for (let value = 0; value < max + step * 0.999; value += step)
    values.push(Math.round(value * 1e6) / 1e6);
  return values;
}

/** The y axis with grid lines and a rotated label; `y(value)` maps data to pixels. */
export function yAxis(
  frame: Frame,
  values: number[],
  y: (value: number) => number,
  label: string,
  format: (value: number) => string,
): string {
  const { width } = inner(frame);
  const lines = values.map(
    (value) =>
      `<line x1="${frame.left}" x2="${frame.left + width}" y1="${px(y(value))}" y2="${px(y(value))}" stroke="#ddd"/><text x="${frame.left - 6}" y="${px(y(value) + 4)}" text-anchor="end" fill="#333">${escapeHtml(format(value))}</text>`,
  );
  const middle = frame.top + inner(frame).height / 2;
  return [
    ...lines,
    `<text x="14" y="${px(middle)}" transform="rotate(-90 14 ${px(middle)})" text-anchor="middle" fill="#333">${escapeHtml(label)}</text>`,
  ].join('\n');
}

/** The x axis line, its category labels and its title. */
export function xAxis(frame: Frame, labels: { x: number; text: string }[], title: string): string {
  const bottom = frame.height - frame.bottom;
  return [
    `<line x1="${frame.left}" x2="${frame.width - frame.right}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`,
    ...labels.map(
      (label) =>
        `<text x="${px(label.x)}" y="${bottom + 16}" text-anchor="middle" fill="#333">${escapeHtml(label.text)}</text>`,
    ),
    `<text x="${px(frame.left + inner(frame).width / 2)}" y="${bottom + 34}" text-anchor="middle" fill="#333">${escapeHtml(title)}</text>`,
  ].join('\n');
}

/** A legend below the plot: one swatch per series, wrapped over rows. Returns the markup and the height used. */
export function legend(
  items: { name: string; color: string; dashed?: boolean; marker?: MarkerShape }[],
  x: number,
  y: number,
  width: number,
): { markup: string; height: number } {
  const parts: string[] = [];
  let column = 0;
  let row = 0;
  const longest = Math.min(34, Math.max(0, ...items.map((item) => item.name.length)));
  const itemWidth = Math.max(90, Math.min(width, 26 + longest * 7));
  const perRow = Math.max(1, Math.floor(width / itemWidth));
  for (const item of items) {
    const left = x + column * itemWidth;
    const top = y + row * 18;
    const swatch = item.dashed
      ? `<line x1="${left}" x2="${left + 14}" y1="${top + 5}" y2="${top + 5}" stroke="${item.color}" stroke-width="2" stroke-dasharray="4 3"/>`
      : item.marker
        ? `<line x1="${left}" x2="${left + 14}" y1="${top + 5}" y2="${top + 5}" stroke="${item.color}" stroke-width="2"/>${marker(item.marker, left + 7, top + 5, item.color)}`
        : `<rect x="${left}" y="${top}" width="12" height="10" fill="${item.color}"/>`;
    const name = item.name.length > 34 ? `${item.name.slice(0, 33)}…` : item.name;
    parts.push(
      `<g>${swatch}<text x="${left + 18}" y="${top + 9}" fill="#333">${escapeHtml(name)}<title>${escapeHtml(item.name)}</title></text></g>`,
    );
    column += 1;
    if (column >= perRow) {
      column = 0;
      row += 1;
    }
  }
  const rows = row + (column > 0 ? 1 : 0);
  return { markup: parts.join('\n'), height: rows * 18 };
}

/** Marker shapes cycled over the series of a line chart, so lines that coincide stay distinguishable. */
const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'down', 'cross'] as const;
/** One of the marker shapes. */
export type MarkerShape = (typeof MARKERS)[number];

/** A marker of `shape` centred on (x, y), filled with `color`; `body` goes inside it (its tooltip). */
export function marker(shape: MarkerShape, x: number, y: number, color: string, body = ''): string {
  const r = 4;
  const at = (points: [number, number][]) =>
    points.map(([dx, dy]) => `${px(x + dx)},${px(y + dy)}`).join(' ');
  if (shape === 'circle')
    return `<circle cx="${px(x)}" cy="${px(y)}" r="${r}" fill="${color}">${body}</circle>`;
  if (shape === 'square')
    return `<rect x="${px(x - r)}" y="${px(y - r)}" width="${2 * r}" height="${2 * r}" fill="${color}">${body}</rect>`;
  if (shape === 'triangle')
    return `<polygon points="${at([
      [0, -r - 1],
      [r + 1, r],
      [-r - 1, r],
    ])}" fill="${color}">${body}</polygon>`;
  if (shape === 'down')
    return `<polygon points="${at([
      [0, r + 1],
      [r + 1, -r],
      [-r - 1, -r],
    ])}" fill="${color}">${body}</polygon>`;
  if (shape === 'diamond')
    return `<polygon points="${at([
      [0, -r - 1],
      [r + 1, 0],
      [0, r + 1],
      [-r - 1, 0],
    ])}" fill="${color}">${body}</polygon>`;
  return `<polygon points="${at([
    [-r, -1.5],
    [-1.5, -1.5],
    [-1.5, -r],
    [1.5, -r],
    [1.5, -1.5],
    [r, -1.5],
    [r, 1.5],
    [1.5, 1.5],
    [1.5, r],
    [-1.5, r],
    [-1.5, 1.5],
    [-r, 1.5],
  ])}" fill="${color}">${body}</polygon>`;
}

/** The marker shape of series `index`. */
export const markerOf = (index: number) => MARKERS[index % MARKERS.length]!;
