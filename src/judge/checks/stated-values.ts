/**
 * What the request and the trajectory state, read for argument values: numbers in digits or
 * words, the number the request gives an argument by its noun, and near misses of shown tokens.
 */
import { wordsOf } from '../../dataset/tool-effect.js';
import { isGrounded, normalizedText } from './values.js';

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
const ORDINAL_WORDS = [
  'zeroth',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
];

/** Whether a text states a number, in digits or (up to twelve) as a word or an ordinal. */
export function mentionsNumber(number: number, text: string): boolean {
  if (isGrounded(number, text)) return true;
  const words = [NUMBER_WORDS[number], ORDINAL_WORDS[number]].filter(
    (word): word is string => word !== undefined,
  );
  return Number.isInteger(number) && words.some((word) => new RegExp(`\\b${word}\\b`).test(text));
}

/** Edit distance with adjacent transpositions (optimal string alignment), for short tokens. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i]![j] = Math.min(
        rows[i - 1]![j]! + 1,
        rows[i]![j - 1]! + 1,
        rows[i - 1]![j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i]![j] = Math.min(rows[i]![j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The token of the context a literal nearly repeats (one or two edits: a typo, two swapped
 * digits), or null. Only for code-like literals (four characters or more, a digit among them) that
 * the context does not hold: "98139" where the request says "98193".
 */
export function nearMiss(value: unknown, context: string): string | null {
  const text = normalizedText(String(value));
  if (text.length < 4 || !/\d/.test(text) || /\s/.test(text) || isGrounded(value, context))
    return null;
  for (const token of new Set(context.split(/[^a-z0-9#_.-]+/))) {
    const clean = token.replace(/[.,]+$/, '');
    if (clean.length === text.length && /\d/.test(clean) && editDistance(clean, text) <= 2)
      return clean;
  }
  return null;
}

const GENERIC_NOUNS = new Set([
  'total',
  'number',
  'num',
  'max',
  'min',
  'count',
  'new',
  'old',
  'is',
  'has',
]);

/**
 * The number the request states for an argument by its noun ("the second season" → season 2,
 * "episode 3" → 3), when it states exactly one; null otherwise.
 */
export function statedNumber(argument: string, request: string): number | null {
  const noun = wordsOf(argument).find((word) => !GENERIC_NOUNS.has(word));
  if (!noun) return null;
  const numberWord = [...NUMBER_WORDS, ...ORDINAL_WORDS].join('|');
  const found = new Set<number>();
  for (const match of request.matchAll(
    new RegExp(
      `\\b(\\d+|${numberWord})(?:st|nd|rd|th)?\\s+${noun}s?\\b|\\b${noun}s?\\s+(\\d+)\\b`,
      'g',
    ),
  )) {
    const word = match[1] ?? match[2]!;
    const index = Math.max(NUMBER_WORDS.indexOf(word), ORDINAL_WORDS.indexOf(word));
    found.add(/^\d+$/.test(word) ? Number(word) : index);
  }
  return found.size === 1 ? [...found][0]! : null;
}
