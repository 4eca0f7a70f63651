/** Texts capped with a visible marker, and the lenient readers of the case browser's details. */

export type Loose = Record<string, unknown>;

/** Longest text kept per field (characters). */
export const TEXT_CAP = 50_000;

/** A text cut at `max` characters with a marker saying how much was left out. */
export function capText(value: unknown, max = TEXT_CAP): string {
  const text =
    typeof value === 'string'
      ? value
      : value === undefined || value === null
        ? ''
        : JSON.stringify(value, null, 2);
  return text.length <= max
    ? text
    : `${text.slice(0, max)}\n… [${(text.length - max).toLocaleString('en-US')} more characters not shown]`;
}

export const asObject = (value: unknown): Loose | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null;
export const stringOrNull = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;
