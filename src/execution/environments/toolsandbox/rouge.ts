/**
 * ROUGE-L F-measure as rouge_score computes it with `RougeScorer(["rougeL"], use_stemmer=True)`:
 * lower-case, every run of characters outside [a-z0-9] a space, Porter-stem tokens longer than
 * three letters, then the longest common subsequence of the two token lists.
 */
import { porterStem } from './porter-stemmer.js';

/** rouge_score's default tokenizer with stemming. */
export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(/\s+/)
    .map((token) => (token.length > 3 ? porterStem(token) : token))
    .filter((token) => /^[a-z0-9]+$/.test(token));
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const token of a) {
    const current = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++)
      current[j] =
        token === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    previous = current;
  }
  return previous[b.length]!;
}

/** ROUGE-L F1 of `prediction` against `target` (0 when either has no tokens). */
export function rougeL(target: string, prediction: string): number {
  const t = rougeTokens(target);
  const p = rougeTokens(prediction);
  if (t.length === 0 || p.length === 0) return 0;
  const lcs = lcsLength(t, p);
  const precision = lcs / p.length;
  const recall = lcs / t.length;
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}
