import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from './did-you-mean.js';

describe('did you mean', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('modle', 'model')).toBe(1);
    expect(editDistance('xml', 'html')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
  });
  it('suggests only near misses (at most a third of the word, at least one edit)', () => {
    expect(closest('offical', ['paper', 'official'])).toBe('official');
    expect(closest('rule', ['rules'])).toBe('rules');
    expect(closest('concurency', ['concurrency', 'rpm'])).toBe('concurrency');
    expect(closest('xml', ['md', 'csv', 'json', 'html'])).toBeNull();
    expect(didYouMean('zzz', ['paper'])).toBe('');
    expect(didYouMean('Paper', ['paper'])).toBe(' (did you mean "paper"?)');
  });
});
