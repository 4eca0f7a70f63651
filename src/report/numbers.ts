/** Number formatting shared by every renderer: rates, grades, intervals and counts (rendering rounds, data never does). */
import type { Interval } from '../metrics/intervals.js';

/** The placeholder for a value that does not exist (an empty group). */
export const MISSING = '–';

/** Rounds half away from zero at `decimals` places, correcting binary noise (74.45 → 74.5, not 74.4). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const scaled = Math.abs(value) * factor;
  const rounded = Math.round(scaled + 1e-9 * Math.max(1, scaled));
  return (Math.sign(value) * rounded) / factor;
}

/** A fixed-point number, or the placeholder for null / NaN. */
export function fixed(value: number | null | undefined, decimals: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  const text = roundTo(value, decimals).toFixed(decimals);
  return text === `-${(0).toFixed(decimals)}` ? (0).toFixed(decimals) : text;
}

/** A signed fixed-point number (+1.3, −0.9), for deltas. */
export function signed(value: number | null | undefined, decimals: number): string {
  const text = fixed(value, decimals);
  if (text === MISSING) return text;
  return value! > 0 && Number(text) !== 0 ? `+${text}` : text;
}

/** A 95 % interval as "lo–hi". */
export function interval(value: Interval | null | undefined, decimals: number): string {
  return value ? `${fixed(value.lo, decimals)}–${fixed(value.hi, decimals)}` : MISSING;
}

/** An integer count with thousands separators (as text); the placeholder for null. */
export function count(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  return Math.round(value).toLocaleString('en-US');
}

/** A p-value: three significant decimals, "< 0.001" below that. */
export function pValue(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  return value < 0.001 ? '< 0.001' : fixed(value, 3);
}

/** US dollars: four decimals below 100 (cheap runs stay readable), two above, thousands separated; the placeholder for null (unknown price). */
export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  const decimals = Math.abs(value) >= 100 ? 2 : 4;
  return `$${roundTo(value, decimals).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;
}
