/** Builds small datasets in the released layout inside a temp directory, for tests. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const TOOLS = [
  {
    name: 'find_flights',
    description: 'Search flights between two airports on a date.',
    parameters: {
      type: 'object',
      properties: {
        origin: { type: 'string' },
        destination: { type: 'string' },
        date: { type: 'string' },
      },
      required: ['origin', 'destination', 'date'],
    },
  },
  {
    name: 'book_flight',
    description: 'Book a flight for a passenger.',
    parameters: {
      type: 'object',
      properties: { flight_id: { type: 'string' }, passenger: { type: 'string' } },
      required: ['flight_id', 'passenger'],
    },
  },
];

/** A valid holistic_planning record; `overrides` replace fields. */
export function holisticRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'hp-1',
    split: 'holistic_planning',
    planning_regime: 'Holistic',
    task_family: 'travel',
    task_category: 'flights',
    source: 'test',
    source_subset: null,
    query: 'Book the cheapest flight from LIS to OPO on 2026-12-03 for Ana Silva.',
    tools_json: JSON.stringify(TOOLS),
    tool_names_json: JSON.stringify(TOOLS.map((tool) => tool.name)),
    plan: '1. Find flights. 2. Book the cheapest.',
    tool_chain_json: JSON.stringify([
      {
        name: 'find_flights',
        parameter_description: { origin: 'LIS', destination: 'OPO', date: '2026-12-03' },
        reason: 'see the options',
      },
      {
        name: 'book_flight',
        parameter_description: {
          flight_id: '<cheapest flight id from step 1>',
          passenger: 'Ana Silva',
        },
        reason: 'book it',
      },
    ]),
    unsolvable_type: null,
    extraneous_tool_names_json: '[]',
    prediction_horizon: null,
    trajectory_prefix_json: '[]',
    ground_truth_steps_json: '[]',
    reference_remaining_steps_json: '[]',
    broken_tool_name: null,
    replacement_tool_json: null,
    files: [],
    ...overrides,
  };
}

/** Writes `data/{split}.jsonl` files from raw line texts (so tests can write broken lines); returns the dataset dir. */
export function writeDataset(
  files: Record<string, string[]>,
  extraFiles: Record<string, string | Buffer> = {},
): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'apb-data-'));
  mkdirSync(path.join(dir, 'data'));
  for (const [split, lines] of Object.entries(files))
    writeFileSync(path.join(dir, 'data', `${split}.jsonl`), lines.join('\n') + '\n');
  for (const [relative, content] of Object.entries(extraFiles)) {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), content);
  }
  return dir;
}
