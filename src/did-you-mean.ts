/** "did you mean …?": the known word nearest to a near miss (a flag, a choice value, a config key). */

/** The known word nearest to `word` (edit distance ≤ 2, or ≤ a third of its length), or null when none is near. */
export function closest(word: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(word.length / 3)) && bestDistance < word.length ? best : null;
}

/** ` (did you mean "X"?)` for a near miss, else the empty string. */
export function didYouMean(word: string, known: readonly string[]): string {
  const near = closest(word, known);
  return near ? ` (did you mean "${near}"?)` : '';
}

/** Levenshtein distance (insertions, deletions and substitutions of one character each cost 1). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
