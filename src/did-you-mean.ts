/** "did you mean …?": the known word nearest to a near miss (a flag, a choice value, a config key). */

/** The known word nearest to `word` (edit distance at most a third of its length, and at least 1), or null when none is near. */
export function closest(word: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== null &&
    bestDistance <= Math.max(1, Math.floor(word.length / 3)) &&
    bestDistance < word.length
    ? best
    : null;
}

/** ` (did you mean "X"?)` for a near miss, else the empty string. */
export function didYouMean(word: string, known: readonly string[]): string {
  const near = closest(word, known);
  return near ? ` (did you mean "${near}"?)` : '';
}

/** Edit distance where an insertion, a deletion, a substitution or a swap of two neighbours costs 1 (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, index) => index)];
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min(
        rows[i - 1]![j]! + 1,
        row[j - 1]! + 1,
        rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
