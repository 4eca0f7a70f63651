/**
 * The label guard: text a constructed case shows the planner (queries, tool names and
 * descriptions) must not say what the case is testing. A distractor never calls itself one, a
 * replacement never announces itself, an unsolvable query never says it cannot be done.
 */

const LABEL_PATTERNS: RegExp[] = [
  /\bdistract(?:or|ing)s?\b/i,
  /\bdecoys?\b/i,
  /\bextraneous\b/i,
  /\birrelevant\b/i,
  /\binert\b/i,
  /\bunsolvable\b/i,
  /\bimpossible\b/i,
  /\bcontradict(?:ory|ion|s)?\b/i,
  /\bground[- ]truth\b/i,
  /\breference (?:answer|plan|solution|chain|trajectory)\b/i,
  /\btrap\b/i,
  /\b(?:fake|dummy|placeholder) (?:tool|function|api)\b/i,
  /\bdo not (?:use|call) this\b/i,
  /\b(?:overpriced|suboptimal)\b/i,
  /\breplacement (?:tool|service|for)\b/i,
  /\bbroken (?:tool|service)\b/i,
];

/** The label words found in `text` (empty when it is clean). */
export function labelWordsIn(text: string): string[] {
  return LABEL_PATTERNS.flatMap((pattern) => {
    const match = pattern.exec(text);
    return match ? [match[0]] : [];
  });
}

/** Label words of texts that were clean in the original: words already in `original` are the task's own. */
export function newLabelWords(text: string, original = ''): string[] {
  const before = new Set(labelWordsIn(original).map((word) => word.toLowerCase()));
  return labelWordsIn(text).filter((word) => !before.has(word.toLowerCase()));
}
