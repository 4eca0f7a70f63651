/**
 * Tool names: the collision rule (names equal but for case and punctuation collide) and the
 * deterministic renamed equivalent used for replacement and overpriced tools (a verb synonym,
 * then a version suffix). The synonym table is documented in docs/construction.md ("Names").
 */

/** A name's comparison key: lower case, every character but letters and digits removed. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** A set of names compared the collision way. */
export class NameSet {
  private readonly keys = new Set<string>();

  constructor(names: Iterable<string> = []) {
    for (const name of names) this.add(name);
  }

  add(name: string): void {
    this.keys.add(nameKey(name));
  }

  /** True when `name` equals a member but for case and punctuation. */
  collides(name: string): boolean {
    return this.keys.has(nameKey(name));
  }
}

/** Leading verbs and their synonyms, tried in order. */
const SYNONYMS: Record<string, string[]> = {
  get: ['fetch', 'retrieve', 'obtain'],
  fetch: ['retrieve', 'obtain', 'load'],
  retrieve: ['fetch', 'obtain'],
  find: ['lookup', 'locate', 'resolve'],
  search: ['query', 'browse', 'scan'],
  list: ['enumerate', 'browse'],
  lookup: ['find', 'resolve'],
  check: ['verify', 'inspect'],
  modify: ['change', 'amend', 'edit'],
  update: ['amend', 'revise', 'change'],
  change: ['modify', 'amend'],
  edit: ['amend', 'revise'],
  cancel: ['void', 'revoke', 'annul'],
  book: ['reserve', 'secure'],
  reserve: ['book', 'hold'],
  send: ['dispatch', 'deliver'],
  create: ['make', 'open', 'generate'],
  delete: ['remove', 'erase'],
  remove: ['drop', 'erase'],
  add: ['append', 'attach'],
  calculate: ['compute', 'evaluate'],
  compute: ['calculate', 'evaluate'],
  convert: ['translate', 'transform'],
  return: ['refund', 'sendback'],
  exchange: ['swap', 'replace'],
  transfer: ['handoff', 'escalate'],
  read: ['load', 'open'],
  write: ['store', 'save'],
  set: ['assign', 'configure'],
  analyze: ['examine', 'inspect'],
  extract: ['pull', 'parse'],
  download: ['pull', 'retrieve'],
  upload: ['push', 'submit'],
  submit: ['file', 'lodge'],
  detect: ['identify', 'spot'],
  translate: ['convert', 'render'],
  summarize: ['condense', 'digest'],
  generate: ['produce', 'create'],
};

/** The words of a name and how they were joined (snake_case, kebab-case, camelCase or PascalCase). */
function splitName(name: string): { words: string[]; join: (words: string[]) => string } {
  if (/[_-]/.test(name)) {
    const separator = name.includes('_') ? '_' : '-';
    return { words: name.split(/[_-]/), join: (words) => words.join(separator) };
  }
  const words = name.split(/(?<=[a-z0-9])(?=[A-Z])/);
  const pascal = /^[A-Z]/.test(name);
  const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  return {
    words,
    join: (parts) =>
      parts
        .map((word, index) => (index === 0 && !pascal ? word.toLowerCase() : capital(word)))
        .join(''),
  };
}

/**
 * A distinct name for a tool doing the same work: its leading verb swapped for a synonym (keeping
 * the name's style), else a `_v2`, `_v3`… suffix; never a name colliding with `taken`.
 */
export function renamedEquivalent(name: string, taken: NameSet): string {
  const { words, join } = splitName(name);
  const verb = words[0]?.toLowerCase() ?? '';
  for (const synonym of SYNONYMS[verb] ?? []) {
    const candidate = join([synonym, ...words.slice(1)]);
    if (!taken.collides(candidate)) return candidate;
  }
  const separator = /[A-Z]/.test(name) && !name.includes('_') ? '' : '_';
  for (let version = 2; ; version++) {
    const candidate = `${name}${separator}${separator ? 'v' : 'V'}${version}`;
    if (!taken.collides(candidate)) return candidate;
  }
}
