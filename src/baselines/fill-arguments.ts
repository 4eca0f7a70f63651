/**
 * Argument filling for the heuristic baseline: each required argument takes a value visible in the
 * text (an email, a date, a URL, an id, a number, a quoted string, a proper name, an enum option)
 * when its name and type say which kind fits, else a placeholder for an earlier step's output.
 */
import type { Tool } from '../dataset/case.js';
import { stem, tokenize } from './lexical.js';

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Values visible in a text, by kind, in order of appearance. */
export interface VisibleValues {
  email: string[];
  date: string[];
  url: string[];
  id: string[];
  number: number[];
  quoted: string[];
  proper: string[];
}

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const DATE = new RegExp(
  `\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b|\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}(?:\\s+\\d{4})?\\b`,
  'gi',
);
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const URL = /https?:\/\/[^\s"'<>)]+/g;
const QUOTED = /"([^"\n]{1,200})"|“([^”\n]{1,200})”|(?<![\w])'([^'\n]{1,200})'(?![\w])/g;
const ID = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_-]{1,}\b/g;
const NUMBER = /(?<![\w.-])-?\d+(?:\.\d+)?(?![\w-])/g;
const PROPER = /(?<![.!?]\s|^)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*/g;

/** Every value of every kind visible in a text; ids, numbers and names inside emails, URLs and dates are skipped. */
export function visibleValues(text: string): VisibleValues {
  const email = [...text.matchAll(EMAIL)].map((match) => match[0]);
  const url = [...text.matchAll(URL)].map((match) => match[0]);
  const date = [...text.matchAll(DATE)].map((match) => match[0]);
  // Blank out what is already taken so its digits do not reappear as ids or numbers.
  let rest = text;
  for (const taken of [...email, ...url, ...date]) rest = rest.split(taken).join(' ');
  return {
    email,
    date,
    url,
    quoted: [...text.matchAll(QUOTED)].map((match) => (match[1] ?? match[2] ?? match[3])!.trim()),
    id: [...rest.matchAll(ID)]
      .map((match) => match[0])
      .filter((value) => !/^\d+(?:st|nd|rd|th|am|pm|h|k|m)$/i.test(value)),
    number: [...rest.matchAll(NUMBER)].map((match) => Number(match[0])),
    proper: [...rest.matchAll(PROPER)].map((match) => match[0]),
  };
}

type Kind = keyof VisibleValues | 'text';

const KIND_WORDS: [Kind, string[]][] = [
  ['email', ['email', 'mail', 'recipient']],
  ['url', ['url', 'link', 'website', 'webpage', 'uri']],
  ['date', ['date', 'day', 'checkin', 'checkout', 'departure', 'arrival', 'deadline', 'birthday']],
  ['id', ['id', 'identifier', 'code', 'sku', 'isbn', 'ticker', 'symbol']],
  [
    'number',
    [
      'amount',
      'count',
      'quantity',
      'price',
      'budget',
      'limit',
      'age',
      'num',
      'number',
      'total',
      'guest',
      'night',
      'people',
      'size',
      'year',
      'rating',
      'max',
      'min',
    ],
  ],
  [
    'text',
    [
      'query',
      'keyword',
      'search',
      'text',
      'prompt',
      'question',
      'topic',
      'term',
      'content',
      'message',
      'body',
      'description',
      'q',
    ],
  ],
  [
    'proper',
    [
      'city',
      'location',
      'destination',
      'origin',
      'place',
      'country',
      'name',
      'title',
      'company',
      'product',
      'person',
      'author',
      'from',
      'to',
      'artist',
      'brand',
    ],
  ],
];

/** Which kind of value an argument wants, from its name first and its JSON type second. */
export function kindOf(name: string, schema: unknown): Kind | null {
  const tokens = tokenize(name.replace(/_/g, ' '));
  // `check_in` → `checkin`, `q` → `q`: short or split names still meet their word.
  const compact = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const [kind, words] of KIND_WORDS) {
    if (words.some((word) => tokens.includes(stem(word)) || compact === word)) return kind;
  }
  const type = isObject(schema) ? schema.type : undefined;
  if (type === 'number' || type === 'integer') return 'number';
  return null;
}

/**
 * A value for one argument from the pool (consumed in order), or a placeholder; `text` is the
 * request, for enums and free text.
 */
function valueFor(
  name: string,
  schema: unknown,
  pool: VisibleValues,
  text: string,
  used: Map<Kind, number>,
): unknown {
  const options = isObject(schema) && Array.isArray(schema.enum) ? schema.enum : null;
  if (options) {
    const lowered = text.toLowerCase();
    return (
      options.find(
        (option) => typeof option === 'string' && lowered.includes(option.toLowerCase()),
      ) ?? `<${name} from an earlier step>`
    );
  }
  const kind = kindOf(name, schema);
  const take = (key: keyof VisibleValues): unknown => {
    const index = used.get(key) ?? 0;
    const value = pool[key][index];
    if (value === undefined) return undefined;
    used.set(key, index + 1);
    return value;
  };
  let value: unknown;
  if (kind === 'text') value = take('quoted') ?? text.trim().replace(/\s+/g, ' ').slice(0, 200);
  else if (kind === 'proper') value = take('quoted') ?? take('proper');
  else if (kind) value = take(kind);
  return value ?? `<${name} from an earlier step>`;
}

/**
 * The required arguments of a tool (the rest are left to the tool's defaults), filled from the
 * values visible in `context`; free-text and enum arguments read the request itself.
 */
export function fillArguments(
  tool: Tool,
  context: string,
  query: string,
  pool: VisibleValues = visibleValues(context),
): Record<string, unknown> {
  const schema = tool.parameters;
  const properties = isObject(schema?.properties) ? schema.properties : {};
  const required = Array.isArray(schema?.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  const used = new Map<Kind, number>();
  return Object.fromEntries(
    required.map((name) => [name, valueFor(name, properties[name], pool, query, used)]),
  );
}
