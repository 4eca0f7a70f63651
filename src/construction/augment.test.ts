import { describe, expect, it } from 'vitest';
import { augmentTargets, constructAugment, DEFAULT_AUGMENT } from './augment.js';
import { ruleCheckSource } from './check.js';
import { FileResolver } from '../dataset/files.js';
import { derivePlan } from './holistic.js';
import { shopRecord } from './make-source.fixture.js';
import type { ConstructionModel } from './model.js';
import { stepsOf } from './source-record.js';

const tool = (name: string) => ({
  name,
  description: `Files a ${name.replace(/_/g, ' ')} for a customer case.`,
  parameters: {
    type: 'object',
    properties: { case_ref: { type: 'string' } },
    required: ['case_ref'],
  },
});

function scripted(reply: (user: string) => Record<string, unknown>) {
  const asked: string[] = [];
  const model: ConstructionModel = {
    id: 'scripted:augment',
    concurrency: 1,
    usage: { calls: 0, cached: 0, failed: 0, inputTokens: 0, outputTokens: 0 },
    ask: (prompt) => {
      asked.push(prompt.user);
      return Promise.resolve({ ok: true, value: reply(prompt.user) });
    },
  };
  return { model, asked };
}

/** A reply meeting the asked targets (parsed from the prompt). */
const goodReply = (user: string) => {
  const [, tools, steps] = /exactly (\d+) new tools and exactly (\d+) new steps/
    .exec(user)!
    .map(Number);
  const names = Array.from({ length: tools! }, (_, index) => `case_note_${index + 1}`);
  return {
    query: 'Cancel my pending order #W1 and file a note on each step of it, please.',
    new_tools: names.map(tool),
    steps: Array.from({ length: steps! }, (_, index) => ({
      thought: `Note ${index + 1}.`,
      tool: names[index % names.length],
      arguments: { case_ref: `C-${index}` },
      result: `{"note": ${index}}`,
    })),
  };
};

describe('augment (B.1: query enrichment, tool-set expansion, trajectory extension)', () => {
  it('draws per-record targets whose means are the paper’s +4.5 steps and +5.6 tools', () => {
    const drawn = Array.from({ length: 2000 }, (_, index) =>
      augmentTargets(7, `r-${index}`, DEFAULT_AUGMENT),
    );
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    expect(new Set(drawn.map((item) => item.steps))).toEqual(new Set([4, 5]));
    expect(mean(drawn.map((item) => item.steps))).toBeCloseTo(4.5, 1);
    expect(mean(drawn.map((item) => item.tools))).toBeCloseTo(5.6, 1);
    expect(augmentTargets(7, 'r-3', DEFAULT_AUGMENT)).toEqual(drawn[3]);
  });

  it('grows each task to target_steps on average instead when asked (the release’s 12.48)', () => {
    const drawn = Array.from(
      { length: 1000 },
      (_, index) =>
        augmentTargets(7, `r-${index}`, { ...DEFAULT_AUGMENT, targetSteps: 12.5 }, 4).steps,
    );
    expect(new Set(drawn)).toEqual(new Set([8, 9]));
    expect(drawn.reduce((a, b) => a + b, 0) / drawn.length).toBeCloseTo(8.5, 1);
    expect(augmentTargets(7, 'r', { ...DEFAULT_AUGMENT, targetSteps: 3 }, 10).steps).toBe(1);
  });

  it('extends a record: new query, tools appended, simulated steps after the last return; it passes the rule check', async () => {
    const record = shopRecord();
    const { model, asked } = scripted(goodReply);
    const { records, meta } = await constructAugment([record], { seed: 3, model });
    const [out] = records;
    const targets = augmentTargets(3, record.id, DEFAULT_AUGMENT);
    expect(asked[0]).toContain('calls: cancel_pending_order(');
    expect(out!.query).toMatch(/file a note on each step/);
    expect(out!.tools.map((entry) => entry.name).slice(0, record.tools.length)).toEqual(
      record.tools.map((entry) => entry.name),
    );
    expect(out!.tools).toHaveLength(record.tools.length + targets.tools);
    expect(stepsOf(out!).length).toBe(stepsOf(record).length + targets.steps);
    expect(out!.messages.slice(0, record.messages.length)).toEqual(record.messages);
    expect(out!.tool_returns).toBe('simulated');
    expect(meta[0]!.generated).toMatchObject({
      augmented: true,
      added_steps: targets.steps,
      simulated_from_return: 4,
      original_tool_returns: 'executed',
    });
    expect(ruleCheckSource(out!, new FileResolver('/nonexistent'), { file: 's', line: 1 })).toEqual(
      { errors: [], warnings: [] },
    );
    expect(derivePlan(out!)!.toolChain).toHaveLength(4 + targets.steps);
  });

  it('keeps the record unchanged when the reply falls short, saying why', async () => {
    const short = (user: string) => ({ ...goodReply(user), steps: [] });
    const badArgs = (user: string) => {
      const reply = goodReply(user);
      reply.steps[0]!.arguments = {} as { case_ref: string };
      return reply;
    };
    for (const [reply, reason] of [
      [short, /^0 new steps, \d asked$/],
      [badArgs, /^step 1 \(case_note_1\): missing-required at case_ref/],
      [
        (user: string) => ({
          ...goodReply(user),
          query: 'Cancel it; this is a test with a decoy.',
        }),
        /label words \(decoy\)/,
      ],
    ] as const) {
      const { model } = scripted(reply);
      const { records, meta } = await constructAugment([shopRecord()], { seed: 3, model });
      expect(records[0]).toEqual(shopRecord());
      expect(String(meta[0]!.generated.model_failure)).toMatch(reason);
    }
  });

  it('keeps real-traffic records as they are, as the paper did, without asking the model', async () => {
    const { model, asked } = scripted(goodReply);
    const record = { ...shopRecord(), source: 'real-traffic' };
    const { records, meta } = await constructAugment([record], { seed: 3, model });
    expect(records[0]).toEqual(record);
    expect(asked).toEqual([]);
    expect(meta[0]!.generated).toEqual({ augmented: false, kept: 'source real-traffic' });
  });
});
