/**
 * No leaks: the planner never sees reference answers, labels or provenance. Every such field of
 * a record of every split carries a unique canary; no planner prompt may contain any of them, and
 * labels that cannot carry a canary (enums, tool names the planner must see anyway) must not
 * change the prompt at all.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPLITS, type SplitName } from '../src/dataset/case.js';
import { readAllCases } from '../src/dataset/read-cases.js';
import { SETTINGS } from '../src/settings/index.js';
import { DEFAULT_PROMPT_OPTIONS, promptText, type PromptOptions } from '../src/settings/prompt.js';
import { rulesJudge } from '../src/judge/rules-judge.js';
import { runEvaluation } from '../src/pipeline/run.js';
import { providerPlanner } from '../src/pipeline/planner.js';
import { FakeProvider } from '../src/providers/fake-provider.js';

const canaries: string[] = [];
function canary(field: string): string {
  const value = `CANARY-${field}-${canaries.length}-7f3a`;
  canaries.push(value);
  return value;
}

const tools = [
  { name: 'search_orders', description: 'Find orders of a customer.', parameters: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] }, cost: 2 },
  { name: 'refund_order', description: 'Refund an order.', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }, cost: 3 },
  { name: 'get_order_logo', description: 'Fetch the artwork of an order page.', parameters: { type: 'object', properties: {} }, cost: 1 },
  { name: 'refund_order_v2', description: 'Refund an order through the backup service.', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }, cost: 3 },
];

function node(tool: string, field: string) {
  return { name: tool, parameter_description: { order_id: canary(`${field}-argument`) }, reason: canary(`${field}-reason`) };
}

function record(split: SplitName, index: number): Record<string, unknown> {
  const stepWise = split.startsWith('step_wise');
  return {
    id: canary('id'),
    split,
    planning_regime: stepWise ? 'Step-wise' : 'Holistic',
    task_family: canary('task_family'),
    task_category: canary('task_category'),
    source: canary('source'),
    source_subset: canary('source_subset'),
    query: `Refund the last order of ana@example.com (case ${index}).`,
    tools_json: JSON.stringify(tools),
    tool_names_json: JSON.stringify(tools.map((tool) => tool.name)),
    plan: canary('plan'),
    tool_chain_json: JSON.stringify([node('search_orders', 'chain'), node('refund_order', 'chain')]),
    unsolvable_type: split === 'holistic_unsolvable' ? 'information_missing' : null,
    extraneous_tool_names_json: JSON.stringify(split.endsWith('tool_extraneous') ? ['get_order_logo'] : []),
    prediction_horizon: stepWise ? 1 : null,
    trajectory_prefix_json: JSON.stringify(
      stepWise
        ? [{ step: 1, thought: 'Look the customer up.', tool: 'search_orders', arguments: { email: 'ana@example.com' }, observation: '{"orders": ["A-1"]}', observation_source: canary('observation_source') }]
        : [],
    ),
    ground_truth_steps_json: JSON.stringify(stepWise ? [node('refund_order_v2', 'ground_truth')] : []),
    reference_remaining_steps_json: JSON.stringify(stepWise ? [node('refund_order_v2', 'remaining')] : []),
    broken_tool_name: split === 'step_wise_tool_broken' ? 'refund_order' : null,
    replacement_tool_json:
      split === 'step_wise_tool_broken' ? JSON.stringify({ name: 'refund_order_v2', description: canary('replacement_description'), parameters: tools[3]!.parameters }) : null,
    files: [],
    base_case_id: canary('base_case_id'),
    stage: stepWise ? 'middle' : null,
    steps: 2,
  };
}

function writeDataset(records: Record<string, unknown>[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'apb-leak-'));
  mkdirSync(path.join(dir, 'data'));
  for (const split of SPLITS) {
    const lines = records.filter((item) => item.split === split).map((item) => JSON.stringify(item));
    writeFileSync(path.join(dir, 'data', `${split}.jsonl`), `${lines.join('\n')}\n`);
  }
  return dir;
}

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
        expect(leaked, `${caseItem.split} (${options.protocol}, allowRefusal=${options.allowRefusal})`).toEqual([]);
        expect(text).toContain('search_orders');
      }
    }
  });

  it('labels that cannot carry a canary do not change the prompt', async () => {
    const variants: [string, (item: Record<string, unknown>) => void][] = [
      ['unsolvable_type', (item) => (item.unsolvable_type = item.split === 'holistic_unsolvable' ? 'tool_removal' : null)],
      ['extraneous_tool_names_json', (item) => (item.extraneous_tool_names_json = JSON.stringify(String(item.split).endsWith('tool_extraneous') ? ['refund_order_v2'] : []))],
      ['broken_tool_name', (item) => (item.broken_tool_name = item.split === 'step_wise_tool_broken' ? 'search_orders' : null)],
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
          const before = promptText(SETTINGS[caseItem.split].buildPrompt(baseCases[index]!.input, options));
          const after = promptText(SETTINGS[caseItem.split].buildPrompt(caseItem.input, options));
          expect(after, `${field} changed the ${caseItem.split} prompt`).toBe(before);
        }
      });
    }
  });

  it('the unsolvable prompt equals the holistic prompt with --allow-refusal, word for word', async () => {
    const { cases } = await readAllCases(writeDataset(SPLITS.map((split, index) => record(split, index))));
    const unsolvable = cases.find((caseItem) => caseItem.split === 'holistic_unsolvable')!;
    const asHolistic = promptText(SETTINGS.holistic_planning.buildPrompt(unsolvable.input, { ...DEFAULT_PROMPT_OPTIONS, allowRefusal: true }));
    expect(promptText(SETTINGS.holistic_unsolvable.buildPrompt(unsolvable.input, DEFAULT_PROMPT_OPTIONS))).toBe(asHolistic);
    const solvable = promptText(SETTINGS.holistic_planning.buildPrompt(unsolvable.input, DEFAULT_PROMPT_OPTIONS));
    expect(solvable).not.toMatch(/REJECT/);
    expect(asHolistic).not.toMatch(/missing|contradict|removed|image|visual/i);
  });
});

describe('what a model planner is sent in a real run', () => {
  it('holds no canary: the planner call carries the prompt and nothing else of the case', async () => {
    const dir = writeDataset(SPLITS.map((split, index) => record(split, index)));
    const provider = new FakeProvider({ fallback: { text: '{"status": "REJECT", "reason": "fake"}' } });
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
