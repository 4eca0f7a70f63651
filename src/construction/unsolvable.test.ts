import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAllCases, SAMPLE_DATASET_DIR } from '../dataset/read-cases.js';
import { constructHolistic } from './holistic.js';
import { caseOf, shopRecord } from './make-source.fixture.js';
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
    expect(item.input.query).toBe(parent.input.query);
    expect(cases[0]!.meta.generated).toMatchObject({ removed_tool: 'cancel_pending_order' });
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
