import { describe, expect, it } from 'vitest';
import { constructCuts, DEFAULT_CUTS } from './cuts.js';
import {
  chooseParents,
  constructExtraneous,
  eligiblePool,
  nestedToolLists,
  rankPool,
} from './extraneous.js';
import { constructHolistic } from './holistic.js';
import { caseOf, shopRecord } from './make-source.fixture.js';
import { nameKey } from './names.js';
import type { SourceTool } from './source-record.js';

const tool = (name: string, description: string): SourceTool => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
});
const POOL: SourceTool[] = [
  tool(
    'Get-Order-Details',
    'Get the status and items of an order (a collision with a listed tool but for case and punctuation).',
  ),
  tool('cancel_pending_order', 'Cancel a pending order (a reference tool).'),
  tool('get_order_invoice', 'Print the invoice of an order.'),
  tool('track_parcel', 'Track the parcel of an order on the carrier site.'),
  tool('get_gift_cards', 'List gift card designs.'),
  tool('get_weather', 'Weather at a city.'),
  tool('rate_product', 'Rate a product with stars.'),
  tool('get_lamp_manual', 'Download the manual of a lamp product.'),
  tool('list_careers', 'Open positions at the company.'),
  tool('get_store_events', 'Events at the stores.'),
  tool('order_catalog', 'Order a printed catalog.'),
  tool('get_order_invoice_v2', 'Print the invoice of an order, newer layout.'),
  tool('get_newsletter', 'Newsletter archive.'),
];

async function parents() {
  const holistic = (await constructHolistic([shopRecord()], { seed: 3 })).cases.map((item) =>
    caseOf(item.record),
  );
  const stepWise = constructCuts([shopRecord()], DEFAULT_CUTS, { seed: 3 })
    .cases.slice(0, 1)
    .map((item) => caseOf(item.record));
  return [...holistic, ...stepWise];
}

describe('extraneous', () => {
  it('never offers a reference tool or a name that collides with a listed tool but for case and punctuation', async () => {
    const [holistic] = await parents();
    const names = eligiblePool(holistic!, POOL).map((item) => item.name);
    expect(names).not.toContain('Get-Order-Details');
    expect(names).not.toContain('cancel_pending_order');
    expect(names).toContain('get_order_invoice');
  });

  it('ranks the pool by lexical similarity to the task, ties by name', async () => {
    const [holistic] = await parents();
    const ranked = rankPool(holistic!, POOL, 4);
    expect(ranked[0]!.score).toBeGreaterThan(0);
    for (let index = 1; index < ranked.length; index++)
      expect(ranked[index - 1]!.score).toBeGreaterThanOrEqual(ranked[index]!.score!);
    expect(ranked.map((item) => item.tool.name)).toContain('get_order_invoice');
  });

  it('nests the levels: a level-L list is the level-(L+2) list without its last two distractors, listed tools in order', async () => {
    const [holistic] = await parents();
    const distractors = rankPool(holistic!, POOL, 10).map((item) => item.tool);
    const lists = nestedToolLists(
      holistic!.input.tools,
      distractors,
      [2, 4, 6, 8, 10],
      5,
      holistic!.id,
    );
    const names = (level: number) => lists.get(level)!.map((item) => item.name);
    for (const [small, large] of [
      [2, 4],
      [4, 6],
      [6, 8],
      [8, 10],
    ] as const) {
      const extra = new Set(distractors.slice(small, large).map((item) => item.name));
      expect(names(large).filter((name) => !extra.has(name))).toEqual(names(small));
    }
    expect(
      names(10).filter((name) => holistic!.input.tools.some((listed) => listed.name === name)),
    ).toEqual(holistic!.input.tools.map((listed) => listed.name));
  });

  it('writes nested variants of holistic and step-wise cases that parse, name their distractors and link to the base case', async () => {
    const { cases, skipped } = await constructExtraneous(
      await parents(),
      { levels: [2, 4, 6, 8, 10], pool: POOL, parentsPerRegime: null },
      { seed: 11 },
    );
    expect(skipped).toEqual([]);
    expect(cases.map((item) => item.split)).toEqual([
      ...Array(5).fill('holistic_tool_extraneous'),
      ...Array(5).fill('step_wise_tool_extraneous'),
    ]);
    const byLevel = cases.slice(0, 5).map((item) => caseOf(item.record));
    for (let index = 1; index < byLevel.length; index++) {
      expect(
        byLevel[index]!.reference.extraneousToolNames.slice(
          0,
          byLevel[index - 1]!.reference.extraneousToolNames.length,
        ),
      ).toEqual(byLevel[index - 1]!.reference.extraneousToolNames);
    }
    const referenceKeys = new Set(
      byLevel[0]!.reference.toolChain.map((call) => nameKey(call.name)),
    );
    for (const variant of byLevel) {
      expect(
        variant.reference.extraneousToolNames.some((name) => referenceKeys.has(nameKey(name))),
      ).toBe(false);
      expect(variant.facets.baseCaseKey).toBe('id:shop-1-holistic');
      expect(variant.facets.distractorLevel).toBe(variant.reference.extraneousToolNames.length);
    }
  });

  it('is deterministic given the seed, and the seed moves the positions', async () => {
    const run = async (seed: number) =>
      JSON.stringify(
        (
          await constructExtraneous(
            await parents(),
            { levels: [2, 4], pool: POOL, parentsPerRegime: null },
            { seed },
          )
        ).cases.map((item) => item.record),
      );
    expect(await run(1)).toBe(await run(1));
    expect(await run(1)).not.toBe(await run(2));
  });

  it('skips the levels the pool cannot fill, and says so', async () => {
    const { cases, skipped } = await constructExtraneous(
      (await parents()).slice(0, 1),
      { levels: [2, 20], pool: POOL, parentsPerRegime: null },
      { seed: 1 },
    );
    expect(cases.map((item) => item.record.id)).toEqual(['shop-1-holistic-x2']);
    expect(skipped[0]!.reason).toMatch(/level 20: only \d+ distractor/);
  });

  it('samples N parents per regime (seeded, order-free) and takes step-wise parents at next-1', async () => {
    const records = Array.from({ length: 6 }, (_, index) =>
      shopRecord(`shop-${index}`, { reuse: true }),
    );
    const holistic = (await constructHolistic(records, { seed: 3 })).cases.map((item) =>
      caseOf(item.record),
    );
    const stepWise = constructCuts(records, DEFAULT_CUTS, { seed: 3 }).cases.map((item) =>
      caseOf(item.record),
    );
    const all = [...holistic, ...stepWise];
    const { chosen, skipped } = chooseParents(all, 2, 5);
    expect(chosen.filter((item) => item.split === 'holistic_planning')).toHaveLength(2);
    const steps = chosen.filter((item) => item.split === 'step_wise_planning');
    expect(steps).toHaveLength(2);
    expect(steps.every((item) => item.input.horizon === 1)).toBe(true);
    expect(skipped).toHaveLength(all.length - 4);
    expect(skipped.filter((item) => /next-1/.test(item.reason))).toHaveLength(12);
    const ids = (list: typeof all) => list.map((item) => item.id).sort();
    expect(ids(chooseParents([...all].reverse(), 2, 5).chosen)).toEqual(ids(chosen));
  });
});
