import { describe, expect, it } from 'vitest';
import { costOf } from '../judge/checks/plan-cost.js';
import {
  cheapestCover,
  combineTools,
  distinctWindows,
  mergeParameters,
} from './efficiency-bank.js';
import { constructEfficiency, deterministicBank, keepSolvedBy } from './efficiency.js';
import { constructHolistic } from './holistic.js';
import { caseOf, SHOP_TOOLS, shopRecord } from './make-source.fixture.js';

const chain = [
  'find_user_by_email',
  'get_order_details',
  'get_product_details',
  'cancel_pending_order',
].map((name, index) => ({ name, arguments: { step: index + 1 }, reason: `r${index + 1}` }));

describe('efficiency bank', () => {
  it('lists every distinct window of 2 and 3 consecutive steps', () => {
    expect(distinctWindows(chain).map((window) => window.names.length)).toEqual([2, 2, 2, 3, 3]);
  });

  it('merges parameters: a name several parts use is numbered per part', () => {
    const merged = mergeParameters([SHOP_TOOLS[1], SHOP_TOOLS[3]]);
    expect(Object.keys(merged.parameters.properties as object)).toEqual([
      'order_id_1',
      'order_id_2',
      'reason',
    ]);
    expect(merged.mapping).toEqual([
      { order_id: 'order_id_1' },
      { order_id: 'order_id_2', reason: 'reason' },
    ]);
  });

  it('finds the cheapest cover (hand-computed)', () => {
    const costs = new Map([
      ['find_user_by_email', 1],
      ['get_order_details', 2],
      ['get_product_details', 3],
      ['cancel_pending_order', 4],
    ]);
    // Plain: 1+2+3+4 = 10. Composite A(order, product) costs 4 (saves 1); B(product, cancel) costs 5 (saves 2): B wins.
    const a = combineTools(['get_order_details', 'get_product_details'], SHOP_TOOLS, '_then_', 4);
    const b = combineTools(
      ['get_product_details', 'cancel_pending_order'],
      SHOP_TOOLS,
      '_then_',
      5,
    );
    const cover = cheapestCover(chain, costs, [a, b]);
    expect(cover.cost).toBe(1 + 2 + 5);
    expect(cover.nodes.map((node) => node.name)).toEqual([
      'find_user_by_email',
      'get_order_details',
      'get_product_details_then_cancel_pending_order',
    ]);
    expect(cover.nodes[2]!.reason).toBe('r3 Then: r4');
  });
});

describe('efficiency', () => {
  it('prices every tool 1–5, adds 3–6 cheaper composites and 2–4 traps, and references the cheapest cover', async () => {
    const parent = caseOf((await constructHolistic([shopRecord()], { seed: 1 })).cases[0]!.record);
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const bank = deterministicBank(parent, seed)!;
      expect([...bank.costs.values()].every((cost) => cost >= 1 && cost <= 5)).toBe(true);
      expect(bank.composites.length).toBeGreaterThanOrEqual(3);
      expect(bank.composites.length).toBeLessThanOrEqual(6);
      expect(bank.traps.length).toBeGreaterThanOrEqual(2);
      expect(bank.traps.length).toBeLessThanOrEqual(4);
      for (const composite of bank.composites)
        expect(composite.tool.cost).toBeLessThan(
          composite.parts.reduce((sum, name) => sum + bank.costs.get(name)!, 0),
        );
    }
    const { cases } = await constructEfficiency([parent], { seed: 1 });
    const item = caseOf(cases[0]!.record);
    expect(item.input.tools.every((tool) => typeof tool.cost === 'number')).toBe(true);
    const referenceCost = costOf(item, item.reference.toolChain)!;
    expect(referenceCost).toBe(cases[0]!.meta.generated.reference_cost);
    expect(referenceCost).toBeLessThan(cases[0]!.meta.generated.cost_without_composites as number);
  });

  it('--solved-by keeps the cases every run solved, by case or parent id', async () => {
    const parent = caseOf((await constructHolistic([shopRecord()], { seed: 1 })).cases[0]!.record);
    const result = await constructEfficiency([parent], { seed: 1 });
    expect(
      keepSolvedBy(result, [
        { run: 'a', solved: new Set(['shop-1-holistic']) },
        { run: 'b', solved: new Set(['shop-1-holistic-efficiency']) },
      ]).cases,
    ).toHaveLength(1);
    const dropped = keepSolvedBy(result, [
      { run: 'a', solved: new Set(['shop-1-holistic']) },
      { run: 'b', solved: new Set() },
    ]);
    expect(dropped.cases).toHaveLength(0);
    expect(dropped.skipped.at(-1)!.reason).toBe('not solved by b');
  });
});
