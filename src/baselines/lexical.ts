/** Lexical tool retrieval for the heuristic baseline: tokens, a BM25-lite score, and verb classes of tool names. */
import type { Tool } from '../dataset/case.js';

const STOPWORDS = new Set(
  'a an the and or of to in on at for from by with as is are was were be been it its this that these those i me my we our you your he she they them their please can could would should will shall do does did have has had not no all any some each every into about over under than then so if when what which who whom how why where there here also just only very use using used tool tools call calls return returns given'.split(
    ' ',
  ),
);

/** A crude English stemmer: enough to meet `bookings`/`booking`/`booked`/`book` in one token. */
export function stem(token: string): string {
  if (token.length > 4 && token.endsWith('ies')) return `${token.slice(0, -3)}y`;
  let word = token;
  if (word.length > 5 && /(?:ches|shes|sses|xes)$/.test(word)) word = word.slice(0, -2);
  else if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word))
    word = word.slice(0, -1);
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 5 && word.endsWith('ed')) return word.slice(0, -2);
  return word;
}

/**
 * Lower-case stemmed word tokens of a text, camelCase and snake_case split, stopwords and
 * one-letter tokens dropped.
 */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 1 && !STOPWORDS.has(token))
    .map(stem);
}

/** One tool's retrieval score and the query tokens that produced it. */
export interface ScoredTool {
  tool: Tool;
  index: number;
  score: number;
  /** Query tokens the tool contains, in query order. */
  matched: string[];
  /**
   * Position in the query of the first matched token (Infinity when none): where the request first
   * mentions the tool.
   */
  firstMention: number;
}

function parameterNames(tool: Tool): string[] {
  const properties = tool.parameters?.properties;
  return properties && typeof properties === 'object' ? Object.keys(properties) : [];
}

/**
 * Scores every tool against a query: Σ idf(token) over query tokens found in the tool, doubled
 * when the token is in the tool's name; idf is BM25's, over the tool bank as the corpus.
 */
export function scoreTools(query: string, tools: readonly Tool[]): ScoredTool[] {
  const documents = tools.map((tool) => {
    const name = new Set(tokenize(tool.name));
    const body = new Set([
      ...name,
      ...tokenize(tool.description),
      ...parameterNames(tool).flatMap(tokenize),
    ]);
    return { name, body };
  });
  const documentFrequency = new Map<string, number>();
  for (const { body } of documents)
    for (const token of body) documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
  const idf = (token: string) => {
    const frequency = documentFrequency.get(token) ?? 0;
    return Math.log(1 + (tools.length - frequency + 0.5) / (frequency + 0.5));
  };
  const queryTokens = [...new Set(tokenize(query))];
  return tools.map((tool, index) => {
    const { name, body } = documents[index]!;
    const matched = queryTokens.filter((token) => body.has(token));
    const score = matched.reduce((sum, token) => sum + idf(token) * (name.has(token) ? 2 : 1), 0);
    const firstMention =
      matched.length > 0 ? queryTokens.indexOf(matched[0]!) : Number.POSITIVE_INFINITY;
    return { tool, index, score, matched, firstMention };
  });
}

const VERBS: [number, string[]][] = [
  [
    0,
    'search find list get lookup look fetch check query read retrieve view load open scan detect extract identify locate download browse recognize'.split(
      ' ',
    ),
  ],
  [
    1,
    'calculate compute convert compare analyze analyse summarize summarise estimate translate filter sort rank evaluate count plot generate parse format validate'.split(
      ' ',
    ),
  ],
  [
    2,
    'create book update send cancel submit delete add remove post write save set schedule reserve order pay purchase upload edit modify insert move share notify email reply'.split(
      ' ',
    ),
  ],
];
const VERB_CLASS = new Map(
  VERBS.flatMap(([rank, verbs]) => verbs.map((verb) => [stem(verb), rank] as const)),
);

/**
 * 0 read, 1 compute, 2 write: the first verb found in the tool's name; a name without a known verb
 * sits with compute.
 */
export function verbClass(toolName: string): number {
  for (const token of tokenize(toolName)) {
    const rank = VERB_CLASS.get(token);
    if (rank !== undefined) return rank;
  }
  return 1;
}
