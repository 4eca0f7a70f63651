/**
 * No leaks in constructed cases: whatever a construction step derives from a reference (reasons,
 * plans, explanations) or records as a label (distractor, replacement, unsolvable type) never
 * reaches a planner-visible field, and generated text that announces what it is gets refused.
 * Extends the canary idea of test/leakage.test.ts to `apb construct`.
 */
import { describe, expect, it } from 'vitest';
import type { ConstructedCase } from '../src/construction/case-record.js';
import { constructBroken } from '../src/construction/broken.js';
import { constructCuts, DEFAULT_CUTS } from '../src/construction/cuts.js';
import { constructEfficiency } from '../src/construction/efficiency.js';
import { constructExtraneous } from '../src/construction/extraneous.js';
import { constructHolistic } from '../src/construction/holistic.js';
import { labelWordsIn } from '../src/construction/labels.js';
import { caseOf, shopRecord } from '../src/construction/make-source.fixture.js';
import { providerModel } from '../src/construction/model.js';
import type { SourceRecord } from '../src/construction/source-record.js';
import { constructUnsolvable } from '../src/construction/unsolvable.js';
import type { Case } from '../src/dataset/case.js';
import { FakeProvider } from '../src/providers/fake-provider.js';
import { SETTINGS } from '../src/settings/index.js';
import { DEFAULT_PROMPT_OPTIONS, promptText } from '../src/settings/prompt.js';

/** The shop record with a canary as the assistant's words at every step. */
function canaryRecord(): SourceRecord {
  const record = shopRecord('leak', { reuse: true });
  let step = 0;
  record.messages = record.messages.map((message) =>
    message.role === 'assistant'
      ? { ...message, content: `CANARY-thought-${step++}-9c1e` }
      : message,
  );
  return record;
}

const POOL = [
  {
    name: 'decoy_lookup',
    description: 'A decoy: irrelevant to the task.',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'get_order_invoice',
    description: 'Print the invoice of an order.',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'track_parcel',
    description: 'Track the parcel of an order.',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'rate_product',
    description: 'Rate a product.',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'get_store_events',
    description: 'Events at the stores.',
    parameters: { type: 'object', properties: {} },
  },
];

/** Everything of a case the planner is shown, as text. */
function visible(caseItem: Case): string {
  const { query, systemPrompt, tools, trajectoryPrefix } = caseItem.input;
  return [
    query,
    systemPrompt ?? '',
    ...tools.map(
      (tool) => `${tool.name} ${tool.description} ${JSON.stringify(tool.parameters ?? {})}`,
    ),
    ...trajectoryPrefix.map((message) => `${message.text} ${message.thought ?? ''}`),
  ].join('\n');
}

const promptOf = (caseItem: Case) =>
  promptText(SETTINGS[caseItem.split].buildPrompt(caseItem.input, DEFAULT_PROMPT_OPTIONS));

async function everyStep(
  record: SourceRecord,
  model?: ReturnType<typeof providerModel>,
): Promise<ConstructedCase[]> {
  const context = { seed: 3, model };
  const holistic = await constructHolistic([record], context);
  const cuts = constructCuts([record], DEFAULT_CUTS, context);
  const broken = await constructBroken([record], context);
  const parents = [...holistic.cases, ...cuts.cases].map((item) => caseOf(item.record));
  const extraneous = await constructExtraneous(
    parents,
    { levels: [2, 4], pool: POOL, parentsPerRegime: null },
    context,
  );
  const unsolvable = await constructUnsolvable(
    parents,
    model ? ['tool_removal', 'information_missing', 'contradictory_constraints'] : ['tool_removal'],
    context,
  );
  const efficiency = await constructEfficiency(parents, context);
  return [
    ...holistic.cases,
    ...cuts.cases,
    ...broken.cases,
    ...extraneous.cases,
    ...unsolvable.cases,
    ...efficiency.cases,
  ];
}

function expectNoLeak(made: readonly ConstructedCase[]): void {
  expect(new Set(made.map((item) => item.split)).size).toBe(7);
  for (const item of made) {
    const caseItem = caseOf(item.record);
    const prompt = promptOf(caseItem);
    // A step-wise prefix shows the executed steps before the cut; everything from the cut on is reference.
    const executed = item.split.startsWith('step_wise')
      ? caseItem.input.trajectoryPrefix.filter((message) => message.role === 'assistant').length
      : 0;
    const leaked = [0, 1, 2, 3].filter(
      (step) => step >= executed && prompt.includes(`CANARY-thought-${step}-9c1e`),
    );
    expect(leaked, `${item.record.id}: reference reasons in the prompt`).toEqual([]);
    if (caseItem.reference.plan)
      expect(
        prompt.includes(caseItem.reference.plan),
        `${item.record.id}: plan in the prompt`,
      ).toBe(false);
    expect(
      labelWordsIn(visible(caseItem)),
      `${item.record.id}: label words in planner-visible fields`,
    ).toEqual([]);
    // Provenance strings never show, except what the case shows by design: its tools' names, the
    // broken call's error, and the tool a tool_removal query mandates (Fig. 16).
    const shown = new Set(caseItem.input.tools.map((tool) => tool.name));
    if (typeof item.meta.generated.removed_tool === 'string')
      shown.add(item.meta.generated.removed_tool);
    for (const value of Object.values(item.meta.generated))
      if (
        typeof value === 'string' &&
        value.length > 12 &&
        !value.startsWith('Error:') &&
        !shown.has(value)
      )
        expect(prompt.includes(value), `${item.record.id}: meta "${value}"`).toBe(false);
  }
}

describe('constructed cases carry no label in a planner-visible field', () => {
  it('holds for every deterministic step (a labelled pool tool is never taken)', async () => {
    const made = await everyStep(canaryRecord());
    expectNoLeak(made);
    const distractors = made
      .filter((item) => item.split.endsWith('tool_extraneous'))
      .flatMap((item) => JSON.parse(item.record.extraneous_tool_names_json as string) as string[]);
    expect(distractors.length).toBeGreaterThan(0);
    expect(distractors).not.toContain('decoy_lookup');
  });

  it('refuses model output that announces itself: labelled distractors, replacements and unsolvable queries', async () => {
    const labelled = new FakeProvider({
      fallback: (request) => {
        const system =
          request.messages[0] && 'parts' in request.messages[0]
            ? JSON.stringify(request.messages[0].parts)
            : '';
        if (system.includes('extend the tool bank'))
          return {
            text: JSON.stringify({
              tools: [1, 2, 3, 4].map((n) => ({
                name: `extra_tool_${n}`,
                description: `A distractor tool ${n}, irrelevant here.`,
              })),
            }),
          };
        if (system.includes('alternative tool'))
          return {
            text: JSON.stringify({
              name: 'order_lookup_service',
              description: 'Replacement service for the broken tool.',
              parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
            }),
          };
        if (system.includes('can no longer be solved'))
          return {
            text: JSON.stringify({
              query: 'This impossible task asks to cancel an order.',
              explanation: 'It cannot be done.',
            }),
          };
        if (system.includes('holistic planning reference'))
          return {
            text: JSON.stringify({
              query: 'Use the ground truth to cancel order #W1 of ana@example.com.',
              plan: '1. CANARY-llm-plan',
              tool_chain: [
                { name: 'cancel_pending_order', parameter_description: {}, reason: 'x' },
              ],
            }),
          };
        return { text: '{}' };
      },
    });
    const made = await everyStep(canaryRecord(), providerModel(labelled, { concurrency: 2 }));
    expect(labelled.requests.length).toBeGreaterThan(0);
    expectNoLeak(made);
    expect(
      made
        .filter((item) => item.split === 'holistic_unsolvable')
        .map((item) => item.record.unsolvable_type),
    ).toEqual(['tool_removal']);
    expect(made.find((item) => item.split === 'holistic_planning')!.meta.generated).toMatchObject({
      plan: 'deterministic-fallback',
      model_failure: expect.stringMatching(/label words/),
    });
    expect(
      made.find((item) => item.split === 'step_wise_tool_broken')!.meta.generated,
    ).toMatchObject({ replacement_from: 'deterministic-rename' });
  });
});
