/**
 * The Porter stemmer as NLTK runs it by default (`PorterStemmer()`, mode NLTK_EXTENSIONS), which is
 * what rouge_score stems with: ToolSandbox's ROUGE-L similarity must see the same stems to give the
 * same scores. Checked against NLTK's output in test/execution/toolsandbox-rouge.test.ts.
 */

/** Words NLTK maps directly, before any rule. */
const IRREGULAR: Record<string, string> = {
  sky: 'sky',
  skies: 'sky',
  dying: 'die',
  lying: 'lie',
  tying: 'tie',
  news: 'news',
  innings: 'inning',
  inning: 'inning',
  outings: 'outing',
  outing: 'outing',
  cannings: 'canning',
  canning: 'canning',
  howe: 'howe',
  proceed: 'proceed',
  exceed: 'exceed',
  succeed: 'succeed',
};

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

/** Whether each letter is a consonant; `y` is one unless it follows a consonant. */
function consonantFlags(word: string): boolean[] {
  const flags: boolean[] = [];
  for (let i = 0; i < word.length; i++) {
    const ch = word[i]!;
    if (VOWELS.has(ch)) flags.push(false);
    else if (ch === 'y') flags.push(i === 0 ? true : !flags[i - 1]);
    else flags.push(true);
  }
  return flags;
}

function isConsonant(word: string, i: number): boolean {
  return consonantFlags(word.slice(0, i + 1))[i]!;
}

/** m in [C](VC)^m[V]: the number of vowel-consonant sequences. */
function measure(stem: string): number {
  const flags = consonantFlags(stem);
  let count = 0;
  for (let i = 1; i < flags.length; i++) if (!flags[i - 1] && flags[i]) count++;
  return count;
}

const positive = (stem: string) => measure(stem) > 0;
const aboveOne = (stem: string) => measure(stem) > 1;

function containsVowel(stem: string): boolean {
  return consonantFlags(stem).some((flag) => !flag);
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o: consonant-vowel-consonant, the last not w, x or y (and NLTK's two-letter vowel-consonant). */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n >= 3) {
    const f = consonantFlags(word);
    if (f[n - 3] && !f[n - 2] && f[n - 1] && !'wxy'.includes(word[n - 1]!)) return true;
  }
  return n === 2 && !isConsonant(word, 0) && isConsonant(word, 1);
}

/** [suffix, replacement, condition on the stem]; `*d` is a double consonant. */
type Rule = [string, string, ((stem: string) => boolean) | null];

/** The first rule whose suffix matches decides: applied if its condition holds, else the word stays. */
function applyRules(word: string, rules: Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = suffix === '' ? word : word.slice(0, -suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith('ies') && word.length === 4) return word.slice(0, -3) + 'ie';
  return applyRules(word, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith('ied')) return word.slice(0, -3) + (word.length === 4 ? 'ie' : 'i');
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? stem + 'ee' : word;
  }
  let stem: string | null = null;
  for (const suffix of ['ed', 'ing'])
    if (word.endsWith(suffix) && containsVowel(word.slice(0, -suffix.length))) {
      stem = word.slice(0, -suffix.length);
      break;
    }
  if (stem === null) return word;
  const last = stem.at(-1)!;
  return applyRules(stem, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => !'lsz'.includes(last)],
    ['', 'e', (s) => measure(s) === 1 && endsCvc(s)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [['y', 'i', (s) => s.length > 1 && isConsonant(s, s.length - 1)]]);
}

const STEP2: Rule[] = [
  ['ational', 'ate', positive],
  ['tional', 'tion', positive],
  ['enci', 'ence', positive],
  ['anci', 'ance', positive],
  ['izer', 'ize', positive],
  ['bli', 'ble', positive],
  ['alli', 'al', positive],
  ['entli', 'ent', positive],
  ['eli', 'e', positive],
  ['ousli', 'ous', positive],
  ['ization', 'ize', positive],
  ['ation', 'ate', positive],
  ['ator', 'ate', positive],
  ['alism', 'al', positive],
  ['iveness', 'ive', positive],
  ['fulness', 'ful', positive],
  ['ousness', 'ous', positive],
  ['aliti', 'al', positive],
  ['iviti', 'ive', positive],
  ['biliti', 'ble', positive],
  ['fulli', 'ful', positive],
];

function step2(word: string): string {
  if (word.endsWith('alli') && positive(word.slice(0, -4))) return step2(word.slice(0, -4) + 'al');
  // NLTK tests "logi" on the word less its last three letters ("log" kept in the measure)
  return applyRules(word, [...STEP2, ['logi', 'log', () => positive(word.slice(0, -3))]]);
}

function step3(word: string): string {
  return applyRules(word, [
    ['icate', 'ic', positive],
    ['ative', '', positive],
    ['alize', 'al', positive],
    ['iciti', 'ic', positive],
    ['ical', 'ic', positive],
    ['ful', '', positive],
    ['ness', '', positive],
  ]);
}

function step4(word: string): string {
  const plain = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent'];
  const after = ['ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];
  return applyRules(word, [
    ...plain.map((suffix): Rule => [suffix, '', aboveOne]),
    ['ion', '', (s) => aboveOne(s) && 'st'.includes(s.at(-1) ?? '?')],
    ...after.map((suffix): Rule => [suffix, '', aboveOne]),
  ]);
}

function step5a(word: string): string {
  if (!word.endsWith('e')) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : word;
}

function step5b(word: string): string {
  return applyRules(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]]);
}

/** The stem of `word`, lower-cased first (NLTK's `PorterStemmer().stem(word)`). */
export function porterStem(word: string): string {
  const lower = word.toLowerCase();
  if (Object.hasOwn(IRREGULAR, lower)) return IRREGULAR[lower]!;
  if (word.length <= 2) return lower;
  let stem = step1a(lower);
  stem = step1b(stem);
  stem = step1c(stem);
  stem = step2(stem);
  stem = step3(stem);
  stem = step4(stem);
  stem = step5a(stem);
  return step5b(stem);
}
