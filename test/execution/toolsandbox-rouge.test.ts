// Porter stems and ROUGE-L values exported from NLTK / rouge_score's rules by
// scripts/toolsandbox/export_rouge.py over ToolSandbox's scenario texts (Apple's licence:
// data/toolsandbox/LICENSE).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { porterStem } from '../../src/execution/environments/toolsandbox/porter-stemmer.js';
import { rougeL, rougeTokens } from '../../src/execution/environments/toolsandbox/rouge.js';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/toolsandbox/rouge.json', import.meta.url), 'utf8'),
) as { stems: Record<string, string>; rouge_l: [string, string, number][] };

describe('Porter stemmer (NLTK_EXTENSIONS)', () => {
  it('stems every exported word as NLTK does', () => {
    const wrong = Object.entries(fixture.stems).filter(([w, s]) => porterStem(w) !== s);
    expect(wrong).toEqual([]);
    expect(Object.keys(fixture.stems).length).toBeGreaterThan(400);
  });
});

describe('ROUGE-L', () => {
  it('matches the exported F-measures', () => {
    for (const [target, prediction, expected] of fixture.rouge_l)
      expect(rougeL(target, prediction)).toBeCloseTo(expected, 12);
  });
  it('tokenises like rouge_score: non-alphanumerics split, short tokens unstemmed', () => {
    expect(rougeTokens("Don't forget: buy 2 tickets!")).toEqual([
      'don',
      't',
      'forget',
      'buy',
      '2',
      'ticket',
    ]);
    expect(rougeL('Hello there', 'Hello there')).toBe(1);
    expect(rougeL('', 'Hello')).toBe(0);
    expect(rougeL('Hello there', 'Hi there')).toBeCloseTo(0.5, 12);
  });
});
