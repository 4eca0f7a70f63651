/**
 * No leaks: the planner never sees reference answers, labels or provenance. Every such field of
 * a record of every split carries a unique canary; no planner prompt may contain any of them, and
 * labels that cannot carry a canary (enums, tool names the planner must see anyway) must not
 * change the prompt at all.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPLITS } from '../src/dataset/case.js';
import { readAllCases } from '../src/dataset/read-cases.js';
import { SETTINGS } from '../src/settings/index.js';
import { DEFAULT_PROMPT_OPTIONS, promptText, type PromptOptions } from '../src/settings/prompt.js';
import { rulesJudge } from '../src/judge/rules-judge.js';
import { runEvaluation } from '../src/pipeline/run.js';
import { providerPlanner } from '../src/pipeline/planner.js';
import { FakeProvider } from '../src/providers/fake-provider.js';
import { canaries, record, writeDataset } from './helpers/canary-dataset.js';

const OPTION_SETS: PromptOptions[] = [
  DEFAULT_PROMPT_OPTIONS,
  { ...DEFAULT_PROMPT_OPTIONS, allowRefusal: true },
  { ...DEFAULT_PROMPT_OPTIONS, protocol: 'official' },
];

describe('planner prompts never contain reference, label or provenance fields', () => {
  it('holds for every split and every prompt option', async () => {
    const records = SPLITS.map((split, index) => record(split, index));
    const { cases } = await readAllCases(writeDataset(records));
    expect(cases).toHaveLength(SPLITS.length);
    for (const caseItem of cases) {
      for (const options of OPTION_SETS) {
        const text = promptText(SETTINGS[caseItem.split].buildPrompt(caseItem.input, options));
        const leaked = canaries.filter((value) => text.includes(value));
        expect(
          leaked,
          `${caseItem.split} (${options.protocol}, allowRefusal=${options.allowRefusal})`,
        ).toEqual([]);
        expect(text).toContain('search_orders');
      }
    }
  });

  it('labels that cannot carry a canary do not change the prompt', async () => {
    const variants: [string, (item: Record<string, unknown>) => void][] = [
      [
        'unsolvable_type',
        (item) =>
          (item.unsolvable_type = item.split === 'holistic_unsolvable' ? 'tool_removal' : null),
      ],
      [
        'extraneous_tool_names_json',
        (item) =>
          (item.extraneous_tool_names_json = JSON.stringify(
            String(item.split).endsWith('tool_extraneous') ? ['refund_order_v2'] : [],
          )),
      ],
      [
        'broken_tool_name',
        (item) =>
          (item.broken_tool_name = item.split === 'step_wise_tool_broken' ? 'search_orders' : null),
      ],
      ['stage', (item) => (item.stage = item.stage ? 'late' : null)],
      ['steps', (item) => (item.steps = 9)],
      ['modality', (item) => (item.modality = 'video')],
    ];
    const base = SPLITS.map((split, index) => record(split, index));
    const { cases: baseCases } = await readAllCases(writeDataset(base));
    for (const [field, change] of variants) {
      const changed = base.map((item) => {
        const copy = { ...item, id: `${String(item.id)}-${field}` };
        change(copy);
        return copy;
      });
      const { cases } = await readAllCases(writeDataset(changed));
      cases.forEach((caseItem, index) => {
        for (const options of OPTION_SETS) {
          const before = promptText(
            SETTINGS[caseItem.split].buildPrompt(baseCases[index]!.input, options),
          );
          const after = promptText(SETTINGS[caseItem.split].buildPrompt(caseItem.input, options));
          expect(after, `${field} changed the ${caseItem.split} prompt`).toBe(before);
        }
      });
    }
  });

  it('the unsolvable prompt equals the holistic prompt with --allow-refusal, word for word', async () => {
    const { cases } = await readAllCases(
      writeDataset(SPLITS.map((split, index) => record(split, index))),
    );
    const unsolvable = cases.find((caseItem) => caseItem.split === 'holistic_unsolvable')!;
    const asHolistic = promptText(
      SETTINGS.holistic_planning.buildPrompt(unsolvable.input, {
        ...DEFAULT_PROMPT_OPTIONS,
        allowRefusal: true,
      }),
    );
    expect(
      promptText(
        SETTINGS.holistic_unsolvable.buildPrompt(unsolvable.input, DEFAULT_PROMPT_OPTIONS),
      ),
    ).toBe(asHolistic);
    const solvable = promptText(
      SETTINGS.holistic_planning.buildPrompt(unsolvable.input, DEFAULT_PROMPT_OPTIONS),
    );
    expect(solvable).not.toMatch(/REJECT/);
    expect(asHolistic).not.toMatch(/missing|contradict|removed|image|visual/i);
  });
});

describe('what a model planner is sent in a real run', () => {
  it('holds no canary: the planner call carries the prompt and nothing else of the case', async () => {
    const dir = writeDataset(SPLITS.map((split, index) => record(split, index)));
    const provider = new FakeProvider({
      fallback: { text: '{"status": "REJECT", "reason": "fake"}' },
    });
    const outDir = path.join(mkdtempSync(path.join(tmpdir(), 'apb-leak-run-')), 'run');
    await runEvaluation(
      {
        outDir,
        selection: { datasetDir: dir, splits: [...SPLITS], repeats: 1 },
        concurrency: 2,
        promptOptions: DEFAULT_PROMPT_OPTIONS,
        skipInvalid: false,
        retryErrors: false,
        baseUrl: null,
        judgeBaseUrl: null,
        judgeBlind: false,
        judgeVersion: rulesJudge.version,
        judgeIds: ['rules'],
      },
      { planner: providerPlanner(provider, {}, false), judge: rulesJudge },
    );
    expect(provider.requests).toHaveLength(SPLITS.length);
    const sent = JSON.stringify(provider.requests);
    expect(canaries.filter((value) => sent.includes(value))).toEqual([]);
  });
});
