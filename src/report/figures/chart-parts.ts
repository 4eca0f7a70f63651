/**
 * What the SVG charts share: the series and text types, the canvas width, tooltips, whiskers and a
 * frame with its legend.
 */
import { escapeHtml } from '../escape.js';
import { legend, px, type Frame, type MarkerShape } from './svg.js';

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
export function whisker(x: number, yLo: number, yHi: number, color: string): string {
  return `<path d="M${px(x)} ${px(yLo)}V${px(yHi)}M${px(x - 3)} ${px(yLo)}H${px(x + 3)}M${px(x - 3)} ${px(yHi)}H${px(x + 3)}" stroke="${color}" stroke-width="1.2" fill="none" opacity="0.75"/>`;
}

export const intervalText = (series: Series, index: number, format: (value: number) => string) => {
  const range = series.intervals?.[index];
  return range ? `, 95 % CI ${format(range.lo)}–${format(range.hi)}` : '';
};

/** What every chart needs to be announced and labelled. */
export interface ChartText {
  id: string;
  title: string;
  description: string;
}

export const WIDTH = 760;
export const tip = (text: string) => `<title>${escapeHtml(text)}</title>`;
/** Tick labels: integers plainly, other values with one decimal (the unit is in the axis title). */
export const tickLabel = (value: number) =>
  Number.isInteger(value) ? String(value) : value.toFixed(1);
export const detail = (series: Series, index: number) =>
  series.notes?.[index] ? ` (${series.notes[index]})` : '';

export function frameWithLegend(
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
