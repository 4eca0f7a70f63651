import { describe, expect, it } from 'vitest';
import { PAPER_SAMPLE, parseSubsetQuota, sampleBySource, type Sampleable } from './sample.js';

const item = (
  id: string,
  source: string | null,
  sourceSubset: string | null = null,
  split: Sampleable['facets']['split'] = 'holistic_planning',
  repeat = 0,
) => ({ id, repeat, facets: { split, source, sourceSubset } });

describe('sampleBySource', () => {
  // The paper's shape in miniature: 3 per source, 1 per subset of the real-traffic source, per split.
  const items = [
    ...Array.from({ length: 8 }, (_, index) => item(`gaia-${index}`, 'gaia')),
    ...Array.from({ length: 2 }, (_, index) => item(`gta-${index}`, 'gta')),
    ...Array.from({ length: 6 }, (_, index) =>
      item(`rt-${index}`, 'real_traffic', index < 3 ? 'shopping' : 'office'),
    ),
    ...Array.from({ length: 5 }, (_, index) =>
      item(`sw-${index}`, 'gaia', null, 'step_wise_planning'),
    ),
  ];
  const spec = { perSource: 3, perSubset: { real_traffic: 1 }, seed: '0' };

  it('takes N per (split, source), M per subset where asked, all of a smaller group, in input order', () => {
    const chosen = sampleBySource(items, spec);
    const count = (prefix: string) => chosen.filter((entry) => entry.id.startsWith(prefix)).length;
    expect([count('gaia-'), count('gta-'), count('rt-'), count('sw-')]).toEqual([3, 2, 2, 3]);
    expect(
      chosen
        .filter((entry) => entry.id.startsWith('rt-'))
        .map((entry) => entry.facets.sourceSubset)
        .sort(),
    ).toEqual(['office', 'shopping']);
    expect(chosen.map((entry) => items.indexOf(entry))).toEqual(
      [...chosen.map((entry) => items.indexOf(entry))].sort((a, b) => a - b),
    );
  });

  it('is stable: the same seed gives the same cases whatever the file order; another seed another draw', () => {
    const ids = (list: Sampleable[]) => list.map((entry) => entry.id).sort();
    expect(ids(sampleBySource([...items].reverse(), spec))).toEqual(
      ids(sampleBySource(items, spec)),
    );
    const draws = new Set(
      ['0', '1', '2', '3', '4'].map((seed) => ids(sampleBySource(items, { ...spec, seed })).join()),
    );
    expect(draws.size).toBeGreaterThan(1);
  });

  it('keeps every repeat of a chosen case, and nothing of the others', () => {
    const repeated = items.flatMap((entry) => [entry, { ...entry, repeat: 1 }]);
    const chosen = sampleBySource(repeated, spec);
    expect(chosen).toHaveLength(2 * sampleBySource(items, spec).length);
  });
});

describe('the paper sample (file order)', () => {
  it('keeps the first 25 per source and the first 5 per real-traffic subset, in file order', () => {
    const items = [
      ...Array.from({ length: 40 }, (_, index) => item(`gaia-${index}`, 'gaia')),
      ...Array.from({ length: 12 }, (_, index) => item(`gta-${index}`, 'gta')),
      ...['doc', 'excel', 'normal', 'ppt', 'train'].flatMap((subset) =>
        Array.from({ length: 9 }, (_, index) =>
          item(`rt-${subset}-${index}`, 'real-traffic', subset),
        ),
      ),
    ];
    const chosen = sampleBySource(items, PAPER_SAMPLE).map((entry) => entry.id);
    expect(chosen).toEqual([
      ...Array.from({ length: 25 }, (_, index) => `gaia-${index}`),
      ...Array.from({ length: 12 }, (_, index) => `gta-${index}`),
      ...['doc', 'excel', 'normal', 'ppt', 'train'].flatMap((subset) =>
        Array.from({ length: 5 }, (_, index) => `rt-${subset}-${index}`),
      ),
    ]);
    // File order decides: reversed input, the last 25 of the file are kept instead.
    const reversed = sampleBySource([...items].reverse(), PAPER_SAMPLE).map((entry) => entry.id);
    expect(reversed).toContain('gaia-39');
    expect(reversed).not.toContain('gaia-0');
  });
});

describe('parseSubsetQuota', () => {
  it('reads SOURCE:N and refuses anything else', () => {
    expect(parseSubsetQuota('real_traffic:5')).toEqual({ source: 'real_traffic', count: 5 });
    expect(parseSubsetQuota('a:b:2')).toEqual({ source: 'a:b', count: 2 });
    for (const bad of ['real_traffic', ':5', 'x:0', 'x:1.5', 'x:'])
      expect(parseSubsetQuota(bad)).toBeNull();
  });
});
