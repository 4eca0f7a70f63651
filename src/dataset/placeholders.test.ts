import { describe, expect, it } from 'vitest';
import { citedSteps, isPlaceholder } from './placeholders.js';

describe('citedSteps', () => {
  it('reads step citations in their usual forms, nested values included', () => {
    expect(citedSteps('<user_id returned by step 1>')).toEqual([1]);
    expect(citedSteps({ order: '#2', items: ['{{step3.output}}', 'action 4'] })).toEqual([2, 3, 4]);
    expect(citedSteps('the output of call_12')).toEqual([12]);
  });

  it('takes a bare #N of more than two digits for an id, not a step (tau2-bench order ids)', () => {
    expect(citedSteps('#9502126')).toEqual([]);
    expect(citedSteps({ order_id: '#W9502127' })).toEqual([]);
    expect(citedSteps('&#39;')).toEqual([]);
    expect(citedSteps('#100')).toEqual([]);
  });
});

describe('isPlaceholder', () => {
  it('tells data-flow placeholders from literals', () => {
    expect(isPlaceholder('<order id from the previous step>')).toBe(true);
    expect(isPlaceholder('${order_id}')).toBe(true);
    expect(isPlaceholder('#9502126')).toBe(false);
    expect(isPlaceholder(42)).toBe(false);
  });
});
