import { describe, expect, it } from 'vitest';
import { constructCuts, cutIndex, DEFAULT_CUTS, STAGE_RATIOS, stageOfRatio } from './cuts.js';
import { caseOf, shopRecord } from './make-source.fixture.js';
import { stepsOf } from './source-record.js';

const context = { seed: 7 };
/** Table 15's cuts: early / middle / late next-1, every record, complete or not. */
const STAGES = { ...DEFAULT_CUTS, ratios: STAGE_RATIOS, completeOnly: false, maxParents: null };
const json = (record: Record<string, unknown>, field: string) =>
  JSON.parse(record[field] as string) as Array<Record<string, unknown>>;

describe('cuts', () => {
  it('by default cuts the middle at next-1, next-2 and next-3: a third each, one parent per three cases', () => {
    const long = shopRecord('shop-long', { reuse: true }); // 6 steps
    const short = shopRecord('shop-short');
    short.messages = short.messages.slice(0, 4); // 2 steps: k = 3 cannot fit
    const { cases, skipped } = constructCuts([long, short], DEFAULT_CUTS, context);
    // n = 6: k = 1 → 3, k = 2 → 3, k = 3 → 3 (all middle).
    expect(
      cases.map((item) => [item.meta.generated.horizon, item.meta.generated.cut_index]),
    ).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(new Set(cases.map((item) => item.record.stage))).toEqual(new Set(['middle']));
    expect(skipped).toEqual([
      expect.objectContaining({
        parent_id: 'shop-short',
        reason: expect.stringMatching(/every horizon fits/),
      }),
    ]);
  });

  it('cuts at most maxParents records, a seeded sample that does not depend on input order', () => {
    const records = Array.from({ length: 10 }, (_, index) => shopRecord(`shop-${index}`));
    const options = { ...DEFAULT_CUTS, maxParents: 4 };
    const parents = (list: typeof records, seed = 7) =>
      [
        ...new Set(constructCuts(list, options, { seed }).cases.map((item) => item.meta.parent_id)),
      ].sort();
    expect(parents(records)).toHaveLength(4);
    expect(parents([...records].reverse())).toEqual(parents(records));
    const draws = new Set([1, 2, 3, 4, 5].map((seed) => parents(records, seed).join()));
    expect(draws.size).toBeGreaterThan(1);
    const { skipped } = constructCuts(records, options, context);
    expect(skipped.filter((item) => /sampled parents/.test(item.reason))).toHaveLength(6);
  });

  it('cuts next-1 at round(ratio · n) and the longer horizons in the middle, clamped so k steps remain (hand-computed)', () => {
    const { cases } = constructCuts([shopRecord()], STAGES, context);
    // n = 4: 0.25 → 1, 0.5 → 2, 0.75 → 3 (k = 1); k = 2 → 2; k = 3 → round(2) = 2 > 4 − 3, so 1.
    expect(
      cases.map((item) => [
        item.meta.generated.horizon,
        item.meta.generated.cut_index,
        item.record.stage,
      ]),
    ).toEqual([
      [1, 1, 'early'],
      [1, 2, 'middle'],
      [1, 3, 'late'],
      [2, 2, 'middle'],
      [3, 1, 'middle'],
    ]);
    expect(cases.map((item) => item.record.id)).toEqual([
      'shop-1-sw-k1-c1',
      'shop-1-sw-k1-c2',
      'shop-1-sw-k1-c3',
      'shop-1-sw-k2-c2',
      'shop-1-sw-k3-c1',
    ]);
  });

  it('gives the prefix with its tool returns, the next k steps as ground truth and every step from the cut as remaining', () => {
    const middle = constructCuts([shopRecord()], STAGES, context).cases.find(
      (item) => item.record.id === 'shop-1-sw-k2-c2',
    )!;
    const prefix = json(middle.record, 'trajectory_prefix_json');
    expect(prefix.map((entry) => entry.role)).toEqual(['assistant', 'tool', 'assistant', 'tool']);
    expect(prefix[3]!.content).toContain('"status": "pending"');
    expect(json(middle.record, 'ground_truth_steps_json').map((step) => step.name)).toEqual([
      'get_product_details',
      'cancel_pending_order',
    ]);
    expect(json(middle.record, 'reference_remaining_steps_json').map((step) => step.name)).toEqual([
      'get_product_details',
      'cancel_pending_order',
    ]);
    expect(middle.record.prediction_horizon).toBe(2);
    const parsed = caseOf(middle.record);
    expect(
      parsed.input.trajectoryPrefix.filter((message) => message.role === 'assistant'),
    ).toHaveLength(2);
    expect(parsed.facets.stage).toBe('middle');
  });

  it('moves a cut off a ground-truth step the environment rejected, to the nearest usable index (earlier on a tie)', () => {
    const steps = stepsOf(shopRecord('shop-2', { withFailure: true }));
    // n = 5 with step 1 failed: 0.25 → round(1.25) = 1 fails → 0; 0.5 → round(2.5) = 3; 0.75 → round(3.75) = 4.
    expect(cutIndex(steps, 0.25, 1)).toEqual({ index: 0, wanted: 1 });
    expect(cutIndex(steps, 0.5, 1)).toEqual({ index: 3, wanted: 3 });
    expect(cutIndex(steps, 0.75, 1)).toEqual({ index: 4, wanted: 4 });
    const early = constructCuts(
      [shopRecord('shop-2', { withFailure: true })],
      { ...STAGES, horizons: [] },
      context,
    ).cases[0]!;
    expect(early.meta.generated).toMatchObject({ cut_index: 0, moved_from: 1 });
  });

  it('keeps one case where several ratios land on one cut: the ratio nearest to it', () => {
    const short = shopRecord('shop-3');
    short.messages = short.messages.slice(0, 4);
    // n = 2: every ratio lands on index 1; 0.5 · 2 = 1 is nearest.
    const { cases } = constructCuts([short], { ...STAGES, horizons: [] }, context);
    expect(cases.map((item) => [item.meta.generated.cut_index, item.record.stage])).toEqual([
      [1, 'middle'],
    ]);
  });

  it('skips records without tool returns unless asked, and names why', () => {
    const absent = { ...shopRecord('shop-4'), tool_returns: 'absent' as const };
    expect(constructCuts([absent], STAGES, context)).toMatchObject({
      cases: [],
      skipped: [{ parent_id: 'shop-4' }],
    });
    expect(
      constructCuts([absent], { ...STAGES, allowUnexecuted: true }, context).cases.length,
    ).toBe(5);
  });

  it('names stages by the bands of dataset/facets.ts', () => {
    expect([0.25, 0.374, 0.375, 0.5, 0.625, 0.626, 0.75].map(stageOfRatio)).toEqual([
      'early',
      'early',
      'middle',
      'middle',
      'middle',
      'late',
      'late',
    ]);
  });
});
