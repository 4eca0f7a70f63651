import { describe, expect, it } from 'vitest';
import { constructBroken, criticalStep, renamedReplacement } from './broken.js';
import { caseOf, SHOP_TOOLS, shopRecord } from './make-source.fixture.js';
import { nameKey } from './names.js';
import { stepsOf } from './source-record.js';
import { brokenToolUsedEarlier } from '../dataset/stats.js';

describe('broken', () => {
  it('breaks only a tool that already worked earlier, preferring a call whose output later steps use', () => {
    const steps = stepsOf(shopRecord('shop-1', { reuse: true }));
    // The second get_order_details (#W2) returns P-78, which the second get_product_details takes.
    const { step, tier } = criticalStep(steps, SHOP_TOOLS, 1, 'shop-1')!;
    expect(tier).toBe('data-flow');
    expect(step.calls[0]).toMatchObject({
      name: 'get_order_details',
      arguments: { order_id: '#W2' },
    });
    const noFlow = steps.map((item) => ({
      ...item,
      returns: item.returns.map((result) => (result ? { ...result, content: 'ok' } : null)),
    }));
    // No data flow and no reused state-changing tool: any reused call, never a first use.
    const any = criticalStep(noFlow, SHOP_TOOLS, 1, 'shop-1')!;
    expect(any.tier).toBe('any');
    expect(any.step.index).toBeGreaterThan(2);
    // A trajectory using every tool once has nothing to break (F.3: the tool worked earlier).
    expect(criticalStep(stepsOf(shopRecord()), SHOP_TOOLS, 1, 'shop-1')).toBeNull();
    // A failed earlier call does not count as the tool having worked.
    expect(
      criticalStep(stepsOf(shopRecord('shop-9', { withFailure: true })), SHOP_TOOLS, 1, 'x'),
    ).toBeNull();
  });

  it('skips a trajectory without a reused tool, saying why', async () => {
    const { cases, skipped } = await constructBroken([shopRecord()], { seed: 4 });
    expect(cases).toEqual([]);
    expect(skipped[0]!.reason).toMatch(/already worked earlier/);
  });

  it('renames the broken tool to a distinct equivalent (verb synonym), same description and parameters', () => {
    const order = SHOP_TOOLS[1]!;
    const replacement = renamedReplacement(order, SHOP_TOOLS);
    expect(replacement.name).toBe('fetch_order_details');
    expect(replacement.parameters).toEqual(order.parameters);
    expect(SHOP_TOOLS.some((tool) => nameKey(tool.name) === nameKey(replacement.name))).toBe(false);
  });

  it('ends the prefix with the critical call and an error return; the reference repeats the call through the replacement', async () => {
    const { cases } = await constructBroken([shopRecord('shop-1', { reuse: true })], { seed: 4 });
    const item = caseOf(cases[0]!.record);
    expect(item.split).toBe('step_wise_tool_broken');
    expect(item.reference.brokenToolName).toBe('get_order_details');
    // The broken tool worked earlier in the prefix (#W1), then fails (#W2).
    const calls = item.input.trajectoryPrefix.flatMap((message) => message.toolCalls);
    expect(calls.filter((entry) => entry.name === 'get_order_details')).toHaveLength(2);
    const last = item.input.trajectoryPrefix.at(-1)!;
    expect(last.role).toBe('tool');
    expect(last.text).toMatch(/^Error: get_order_details /);
    const call = item.input.trajectoryPrefix.at(-2)!.toolCalls[0]!;
    expect(item.reference.groundTruthSteps[0]!.toolCalls[0]).toMatchObject({
      name: item.reference.replacementTool!.name,
      arguments: call.arguments,
    });
    expect(item.input.tools.map((tool) => tool.name)).toContain(
      item.reference.replacementTool!.name,
    );
    expect(item.input.tools.map((tool) => tool.name)).toContain('get_order_details');
    expect(
      item.reference.remainingSteps.flatMap((step) => step.toolCalls.map((entry) => entry.name)),
    ).not.toContain('get_order_details');
    expect(brokenToolUsedEarlier(item)).toBe(true);
    expect(item.input.horizon).toBe(1);
  });

  it('is deterministic given the seed', async () => {
    const run = async (seed: number) =>
      JSON.stringify(
        (
          await constructBroken(
            [shopRecord('shop-1', { reuse: true }), shopRecord('shop-9', { reuse: true })],
            {
              seed,
            },
          )
        ).cases,
      );
    expect(await run(5)).toBe(await run(5));
  });
});
