import { describe, expect, it } from 'vitest';
import { constructBroken, criticalStep, renamedReplacement } from './broken.js';
import { caseOf, SHOP_TOOLS, shopRecord } from './make-source.fixture.js';
import { nameKey } from './names.js';
import { stepsOf } from './source-record.js';

describe('broken', () => {
  it('prefers a first call whose output later steps use (data flow), then state-changing, then any', () => {
    const steps = stepsOf(shopRecord());
    // get_order_details returns P-77, which get_product_details takes; find_user_by_email's "ana_17" is used by no later call.
    const { step, tier } = criticalStep(steps, SHOP_TOOLS, 1, 'shop-1')!;
    expect(tier).toBe('data-flow');
    expect(step.calls[0]!.name).toBe('get_order_details');
    const noFlow = steps.map((item) => ({
      ...item,
      returns: item.returns.map((result) => (result ? { ...result, content: 'ok' } : null)),
    }));
    expect(criticalStep(noFlow, SHOP_TOOLS, 1, 'shop-1')).toMatchObject({
      tier: 'state-changing',
      step: { calls: [{ name: 'cancel_pending_order' }] },
    });
  });

  it('renames the broken tool to a distinct equivalent (verb synonym), same description and parameters', () => {
    const order = SHOP_TOOLS[1]!;
    const replacement = renamedReplacement(order, SHOP_TOOLS);
    expect(replacement.name).toBe('fetch_order_details');
    expect(replacement.parameters).toEqual(order.parameters);
    expect(SHOP_TOOLS.some((tool) => nameKey(tool.name) === nameKey(replacement.name))).toBe(false);
  });

  it('ends the prefix with the critical call and an error return; the reference repeats the call through the replacement', async () => {
    const { cases } = await constructBroken([shopRecord()], { seed: 4 });
    const item = caseOf(cases[0]!.record);
    expect(item.split).toBe('step_wise_tool_broken');
    expect(item.reference.brokenToolName).toBe('get_order_details');
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
    expect(item.input.horizon).toBe(1);
  });

  it('is deterministic given the seed', async () => {
    const run = async (seed: number) =>
      JSON.stringify(
        (
          await constructBroken([shopRecord(), shopRecord('shop-9', { withFailure: true })], {
            seed,
          })
        ).cases,
      );
    expect(await run(5)).toBe(await run(5));
  });
});
