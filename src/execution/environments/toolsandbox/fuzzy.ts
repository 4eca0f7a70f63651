/**
 * The rapidfuzz scorers ToolSandbox's searches use (rapidfuzz 3.x semantics): `default_process`,
 * `ratio` (normalised Indel similarity), `partial_ratio` (the best window of the longer string),
 * `WRatio` (its weighted blend with the token ratios), and `process.extract` (the five best
 * choices at or above a cutoff, best first, earlier choices first on ties).
 */

/** rapidfuzz `utils.default_process`: non-alphanumerics to spaces, lower case, trimmed. */
export function defaultProcess(text: string): string {
  return text
    .replace(/[^\p{L}\p{N}]/gu, ' ')
    .toLowerCase()
    .trim();
}

function lcsLength(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const ca of a) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 0; j < b.length; j++)
      row[j + 1] = ca === b[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, row[j]!);
    previous = row;
  }
  return previous[b.length]!;
}

function chars(text: string): string[] {
  return [...text];
}

function normalised(lengthSum: number, distance: number): number {
  return lengthSum === 0 ? 100 : 100 - (100 * distance) / lengthSum;
}

function ratioChars(a: string[], b: string[]): number {
  const sum = a.length + b.length;
  return normalised(sum, sum - 2 * lcsLength(a, b));
}

/** `fuzz.ratio`. */
export function ratio(a: string, b: string): number {
  return ratioChars(chars(a), chars(b));
}

function partialImpl(shorter: string[], longer: string[]): number {
  const n = shorter.length;
  const m = longer.length;
  const present = new Set(shorter);
  let best = 0;
  const consider = (window: string[]) => {
    best = Math.max(best, ratioChars(shorter, window));
    return best === 100;
  };
  for (let i = 1; i < n; i++)
    if (present.has(longer[i - 1]!) && consider(longer.slice(0, i))) return best;
  for (let i = 0; i < m - n; i++)
    if (present.has(longer[i + n - 1]!) && consider(longer.slice(i, i + n))) return best;
  for (let i = Math.max(m - n, 0); i < m; i++)
    if (present.has(longer[i]!) && consider(longer.slice(i))) return best;
  return best;
}

/** `fuzz.partial_ratio`. */
export function partialRatio(a: string, b: string): number {
  const ca = chars(a);
  const cb = chars(b);
  if (ca.length === 0 && cb.length === 0) return 100;
  if (ca.length === 0 || cb.length === 0) return 0;
  const [shorter, longer] = ca.length <= cb.length ? [ca, cb] : [cb, ca];
  let score = partialImpl(shorter, longer);
  if (score !== 100 && ca.length === cb.length)
    score = Math.max(score, partialImpl(longer, shorter));
  return score;
}

function words(text: string): string[] {
  return text.split(/\s+/u).filter((w) => w !== '');
}

function sortedJoin(tokens: Iterable<string>): string {
  return [...tokens].sort().join(' ');
}

/** rapidfuzz's `token_ratio`: the better of the token-sort and token-set ratios. */
export function tokenRatio(a: string, b: string): number {
  const tokensA = words(a);
  const tokensB = words(b);
  const setA = new Set(tokensA);
  const setB = new Set(tokensB);
  const intersection = [...setA].filter((t) => setB.has(t));
  const diffAB = [...setA].filter((t) => !setB.has(t));
  const diffBA = [...setB].filter((t) => !setA.has(t));
  if (intersection.length > 0 && (diffAB.length === 0 || diffBA.length === 0)) return 100;
  const joinedAB = sortedJoin(diffAB);
  const joinedBA = sortedJoin(diffBA);
  const abLength = chars(joinedAB).length;
  const baLength = chars(joinedBA).length;
  let result = ratio(sortedJoin(tokensA), sortedJoin(tokensB));
  const sectLength = chars(sortedJoin(intersection)).length;
  const sectAB = sectLength + (sectLength !== 0 ? 1 : 0) + abLength;
  const sectBA = sectLength + (sectLength !== 0 ? 1 : 0) + baLength;
  const sum = sectAB + sectBA;
  const distance = abLength + baLength - 2 * lcsLength(chars(joinedAB), chars(joinedBA));
  result = Math.max(result, normalised(sum, distance));
  if (sectLength === 0) return result;
  const abRatio = normalised(sectLength + sectAB, sectAB - sectLength);
  const baRatio = normalised(sectLength + sectBA, sectBA - sectLength);
  return Math.max(result, abRatio, baRatio);
}

/** rapidfuzz's `partial_token_ratio`. */
export function partialTokenRatio(a: string, b: string): number {
  const tokensA = words(a);
  const tokensB = words(b);
  const setA = new Set(tokensA);
  const setB = new Set(tokensB);
  if ([...setA].some((t) => setB.has(t))) return 100;
  const diffAB = [...setA].filter((t) => !setB.has(t));
  const diffBA = [...setB].filter((t) => !setA.has(t));
  const result = partialRatio(sortedJoin(tokensA), sortedJoin(tokensB));
  if (tokensA.length === diffAB.length && tokensB.length === diffBA.length) return result;
  return Math.max(result, partialRatio(sortedJoin(diffAB), sortedJoin(diffBA)));
}

/** `fuzz.WRatio` on already processed strings. */
export function wRatio(a: string, b: string): number {
  if (a === '' || b === '') return 0;
  const unbase = 0.95;
  const la = chars(a).length;
  const lb = chars(b).length;
  const lengthRatio = la > lb ? la / lb : lb / la;
  let end = ratio(a, b);
  if (lengthRatio < 1.5) return Math.max(end, tokenRatio(a, b) * unbase);
  // rapidfuzz keeps the 0.9 scale at a length ratio of exactly 8 (measured)
  const partialScale = lengthRatio <= 8 ? 0.9 : 0.6;
  end = Math.max(end, partialRatio(a, b) * partialScale);
  return Math.max(end, partialTokenRatio(a, b) * unbase * partialScale);
}

/**
 * `process.extract(query, choices, processor=default_process, scorer=WRatio,
 * score_cutoff=cutoff)`: the indices of the (at most five) best choices; null choices skipped.
 */
export function extractIndices(
  query: string,
  choices: (string | null)[],
  cutoff: number,
): number[] {
  const processed = defaultProcess(query);
  const scored: { index: number; score: number }[] = [];
  choices.forEach((choice, index) => {
    if (choice === null) return;
    const score = wRatio(processed, defaultProcess(choice));
    if (score >= cutoff) scored.push({ index, score });
  });
  scored.sort((x, y) => y.score - x.score || x.index - y.index);
  return scored.slice(0, 5).map((s) => s.index);
}
