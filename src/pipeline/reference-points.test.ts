import { describe, expect, it } from 'vitest';
import { readAllCases, resolveDatasetDir } from '../dataset/read-cases.js';
import { rulesJudge } from '../judge/rules-judge.js';
import { DEFAULT_PROMPT_OPTIONS } from '../settings/prompt.js';
import { referencePoints } from './reference-points.js';

describe('referencePoints', () => {
  it('judges the oracle and the refusal on the sample: the oracle at 100 %, the refusal only where refusing is right', async () => {
    const { cases } = await readAllCases(resolveDatasetDir('sample'));
    const [oracle, refuse] = await referencePoints(cases, rulesJudge, DEFAULT_PROMPT_OPTIONS);
    expect(oracle!.model).toBe('baseline:oracle');
    expect(oracle!.rows).toHaveLength(cases.length);
    expect(oracle!.rows.every((row) => row.correct)).toBe(true);
    expect(refuse!.model).toBe('baseline:refuse');
    const refusedRight = refuse!.rows.filter((row) => row.correct);
    expect(refusedRight.length).toBeGreaterThan(0);
    expect(new Set(refusedRight.map((row) => row.facets.split))).toEqual(
      new Set(['holistic_unsolvable']),
    );
    expect(refusedRight).toHaveLength(
      cases.filter((item) => item.split === 'holistic_unsolvable').length,
    );
  });
});
