/**
 * A dataset whose every reference, label and provenance field carries a unique canary (one record
 * per split), for the leakage tests: nothing a planner, critic or reviser is sent may contain one.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SPLITS, type SplitName } from '../../src/dataset/case.js';

/** Every canary handed out so far (all start with `CANARY-`). */
export const canaries: string[] = [];
/** A new unique canary for `field`. */
export function canary(field: string): string {
  const value = `CANARY-${field}-${canaries.length}-7f3a`;
  canaries.push(value);
  return value;
}

const tools = [
  {
    name: 'search_orders',
    description: 'Find orders of a customer.',
    parameters: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
    cost: 2,
  },
  {
    name: 'refund_order',
    description: 'Refund an order.',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' } },
      required: ['order_id'],
    },
    cost: 3,
  },
  {
    name: 'get_order_logo',
    description: 'Fetch the artwork of an order page.',
    parameters: { type: 'object', properties: {} },
    cost: 1,
  },
  {
    name: 'refund_order_v2',
    description: 'Refund an order through the backup service.',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' } },
      required: ['order_id'],
    },
    cost: 3,
  },
];

function node(tool: string, field: string) {
  return {
    name: tool,
    parameter_description: { order_id: canary(`${field}-argument`) },
    reason: canary(`${field}-reason`),
  };
}

/** One record of `split` with a canary in every reference, label and provenance field. */
export function record(split: SplitName, index: number): Record<string, unknown> {
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
    tool_chain_json: JSON.stringify([
      node('search_orders', 'chain'),
      node('refund_order', 'chain'),
    ]),
    unsolvable_type: split === 'holistic_unsolvable' ? 'information_missing' : null,
    extraneous_tool_names_json: JSON.stringify(
      split.endsWith('tool_extraneous') ? ['get_order_logo'] : [],
    ),
    prediction_horizon: stepWise ? 1 : null,
    trajectory_prefix_json: JSON.stringify(
      stepWise
        ? [
            {
              step: 1,
              thought: 'Look the customer up.',
              tool: 'search_orders',
              arguments: { email: 'ana@example.com' },
              observation: '{"orders": ["A-1"]}',
              observation_source: canary('observation_source'),
            },
          ]
        : [],
    ),
    ground_truth_steps_json: JSON.stringify(
      stepWise ? [node('refund_order_v2', 'ground_truth')] : [],
    ),
    reference_remaining_steps_json: JSON.stringify(
      stepWise ? [node('refund_order_v2', 'remaining')] : [],
    ),
    broken_tool_name: split === 'step_wise_tool_broken' ? 'refund_order' : null,
    replacement_tool_json:
      split === 'step_wise_tool_broken'
        ? JSON.stringify({
            name: 'refund_order_v2',
            description: canary('replacement_description'),
            parameters: tools[3]!.parameters,
          })
        : null,
    files: [],
    base_case_id: canary('base_case_id'),
    stage: stepWise ? 'middle' : null,
    steps: 2,
  };
}

/** Writes records into a fresh dataset directory in the released layout. */
export function writeDataset(records: Record<string, unknown>[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'apb-leak-'));
  mkdirSync(path.join(dir, 'data'));
  for (const split of SPLITS) {
    const lines = records
      .filter((item) => item.split === split)
      .map((item) => JSON.stringify(item));
    writeFileSync(path.join(dir, 'data', `${split}.jsonl`), `${lines.join('\n')}\n`);
  }
  return dir;
}
