import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAllCases, SAMPLE_DATASET_DIR } from '../dataset/read-cases.js';
import { constructHolistic } from './holistic.js';
import { caseOf, shopRecord } from './make-source.fixture.js';
import type { ConstructionModel } from './model.js';
import { constructUnsolvable, criticalTool } from './unsolvable.js';

describe('unsolvable', () => {
  it('tool_removal removes the last state-changing tool of the reference, which the reference still needs', async () => {
    const parent = caseOf((await constructHolistic([shopRecord()], { seed: 1 })).cases[0]!.record);
    expect(criticalTool(parent)).toBe('cancel_pending_order');
    const { cases } = await constructUnsolvable([parent], ['tool_removal'], { seed: 1 });
    const item = caseOf(cases[0]!.record);
    expect(item.reference.unsolvableType).toBe('tool_removal');
    expect(item.input.tools.map((tool) => tool.name)).not.toContain('cancel_pending_order');
    expect(parent.reference.toolChain.map((call) => call.name)).toContain('cancel_pending_order');
    expect(item.reference.toolChain).toEqual([]);
    // Fig. 16: the query still mandates the removed tool (by rule without a model).
    expect(item.input.query).toBe(
      `${parent.input.query} Please make sure this is done through cancel_pending_order.`,
    );
    expect(cases[0]!.meta.generated).toMatchObject({
      removed_tool: 'cancel_pending_order',
      mandate: 'rule',
    });
  });

  it('visual_missing empties the files of image cases only (the built-in sample)', async () => {
    const { cases: parents } = await readAllCases(SAMPLE_DATASET_DIR, {
      splits: ['holistic_planning'],
    });
    const withImages = parents.filter((parent) =>
      parent.input.files.some((file) => file.kind === 'image'),
    );
    expect(withImages.length).toBeGreaterThan(0);
    const { cases, skipped } = await constructUnsolvable(parents, ['visual_missing'], { seed: 1 });
    expect(cases.map((item) => item.meta.parent_id).sort()).toEqual(
      withImages.map((parent) => parent.id).sort(),
    );
    expect(skipped.length).toBe(parents.length - withImages.length);
    for (const item of cases) {
      expect(item.record.files).toEqual([]);
      expect(item.attachments).toEqual([]);
      expect(caseOf(item.record, path.join(SAMPLE_DATASET_DIR)).input.files).toEqual([]);
    }
  });

  it('refuses a model-made type without a model, naming it', async () => {
    const parent = caseOf((await constructHolistic([shopRecord()], { seed: 1 })).cases[0]!.record);
    const { cases, skipped } = await constructUnsolvable([parent], ['information_missing'], {
      seed: 1,
    });
    expect(cases).toEqual([]);
    expect(skipped[0]!.reason).toMatch(/needs --llm/);
  });
});

/** A construction model answering from a script, for the model-made types. */
function scripted(reply: (system: string, user: string) => Record<string, unknown>) {
  const asked: string[] = [];
  const model: ConstructionModel = {
    id: 'scripted:unsolvable',
    concurrency: 1,
    usage: { calls: 0, cached: 0, failed: 0, inputTokens: 0, outputTokens: 0 },
    ask: (prompt) => {
      asked.push(prompt.user);
      return Promise.resolve({ ok: true, value: reply(prompt.system, prompt.user) });
    },
  };
  return { model, asked };
}

describe('unsolvable with a model (Figs. 14–16)', () => {
  const parentOf = async () =>
    caseOf((await constructHolistic([shopRecord()], { seed: 1 })).cases[0]!.record);

  it('tool_removal: the model rewrites the query to mandate the removed tool, which it no longer sees listed', async () => {
    const parent = await parentOf();
    const { model, asked } = scripted(() => ({
      query: `${parent.input.query} Do it with cancel_pending_order, nothing else.`,
      explanation: 'The cancelling tool is gone.',
    }));
    const { cases } = await constructUnsolvable([parent], ['tool_removal'], { seed: 1, model });
    expect(asked[0]).toContain(
      '## The removed tool (no longer listed above)\ncancel_pending_order',
    );
    expect(asked[0]!.split('## The removed tool')[0]).not.toContain('"cancel_pending_order"');
    expect(caseOf(cases[0]!.record).input.query).toMatch(/Do it with cancel_pending_order/);
    expect(cases[0]!.meta).toMatchObject({ generated: { mandate: 'model' } });
  });

  it('tool_removal: a rewrite that does not name the removed tool falls back to the rule mandate', async () => {
    const parent = await parentOf();
    const { model } = scripted(() => ({ query: 'Cancel it somehow.', explanation: 'Gone.' }));
    const { cases } = await constructUnsolvable([parent], ['tool_removal'], { seed: 1, model });
    expect(cases[0]!.meta.generated).toMatchObject({
      mandate: 'rule',
      model_failure: 'the query does not mandate the removed tool cancel_pending_order',
    });
    expect(caseOf(cases[0]!.record).input.query).toMatch(/done through cancel_pending_order\.$/);
  });

  it('contradictory_constraints: a needed tool is made restricted and the query collides with it', async () => {
    const parent = await parentOf();
    const { model } = scripted(() => ({
      restricted_tool: 'cancel_pending_order',
      restriction: 'Only accepts orders placed in the last 24 hours.',
      query: `${parent.input.query} I placed it three weeks ago.`,
      explanation: 'The order is too old for the only cancelling tool.',
    }));
    const { cases } = await constructUnsolvable([parent], ['contradictory_constraints'], {
      seed: 1,
      model,
    });
    const item = caseOf(cases[0]!.record);
    const tool = item.input.tools.find((entry) => entry.name === 'cancel_pending_order')!;
    expect(tool.description).toBe(
      'Cancel a pending order. Only accepts orders placed in the last 24 hours.',
    );
    expect(item.input.query).toMatch(/three weeks ago\.$/);
    expect(item.input.tools).toHaveLength(parent.input.tools.length);
    expect(cases[0]!.meta.generated).toMatchObject({ restricted_tool: 'cancel_pending_order' });
  });

  it('contradictory_constraints: a reply that restricts no tool of the solution is unusable', async () => {
    const parent = await parentOf();
    const { model } = scripted(() => ({
      restricted_tool: 'list_store_hours',
      restriction: 'Offline.',
      query: `${parent.input.query} Today only.`,
      explanation: 'x',
    }));
    const { cases, skipped } = await constructUnsolvable([parent], ['contradictory_constraints'], {
      seed: 1,
      model,
    });
    expect(cases).toEqual([]);
    expect(skipped[0]!.reason).toMatch(/"list_store_hours" is not a listed tool of the solution/);
  });
});
