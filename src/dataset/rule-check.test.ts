import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FileResolver } from './files.js';
import { parseRecordLine } from './parse-record.js';
import { ruleCheck } from './rule-check.js';

// Real records of the tau2-bench conversion (MIT, see the fixture's LICENSE-tau2-bench.txt), edited per test.
const DATASET = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/datasets/tau2-bench-apb',
);
const lines = (split: string) =>
  readFileSync(path.join(DATASET, 'data', `${split}.jsonl`), 'utf8')
    .trim()
    .split('\n');
const recordOf = (split: string, id: string) => {
  const line = lines(split).find((text) => text.includes(`"id": "${id}"`));
  if (!line) throw new Error(`no ${id}`);
  return JSON.parse(line) as Record<string, unknown>;
};
const caseOf = (record: Record<string, unknown>) => {
  const parsed = parseRecordLine(
    JSON.stringify(record),
    { file: 'x.jsonl', line: 1, fileSplit: null },
    new FileResolver(DATASET),
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.case;
};
const edit = (
  record: Record<string, unknown>,
  field: string,
  change: (value: Record<string, unknown>[]) => void,
) => {
  const value = JSON.parse(record[field] as string) as Record<string, unknown>[];
  change(value);
  return { ...record, [field]: JSON.stringify(value) };
};
const summary = (record: Record<string, unknown>) =>
  ruleCheck(caseOf(record)).map((issue) => `${issue.severity} ${issue.field}: ${issue.message}`);

describe('ruleCheck (paper B.2)', () => {
  const stepWise = recordOf('step_wise_planning', 'tau2-airline-12-sp-c02-h2');

  it('passes a real record unchanged', () => {
    expect(summary(stepWise)).toEqual([]);
  });

  it('a prefix calling an unlisted tool is an error naming the entry', () => {
    const bad = edit(
      stepWise,
      'trajectory_prefix_json',
      (prefix) => (prefix[1]!.tool = 'nonexistent_tool_xyz'),
    );
    expect(summary(bad)).toEqual([
      'error trajectory_prefix_json[1].tool: calls "nonexistent_tool_xyz", which is not a listed tool',
    ]);
  });

  it('prefix arguments are checked against the schema: missing, wrong type, unknown, enum', () => {
    const bad = edit(stepWise, 'trajectory_prefix_json', (prefix) => {
      prefix[0]!.arguments = { reservation_id: 42 };
      prefix[1]!.arguments = { origin: 'BOS', date: '2024-05-18', seat: '1A' };
    });
    expect(summary(bad)).toEqual([
      'error trajectory_prefix_json[0].arguments.reservation_id: wrong type for get_reservation_details (expected string, got number)',
      'error trajectory_prefix_json[1].arguments.destination: missing required for search_direct_flight',
      'error trajectory_prefix_json[1].arguments.seat: unknown argument for search_direct_flight',
    ]);
  });

  it('a placeholder in an executed call is a warning, not an error', () => {
    const placeholder = edit(stepWise, 'trajectory_prefix_json', (prefix) => {
      prefix[0]!.tool = 'update_reservation_baggages';
      prefix[0]!.arguments = {
        reservation_id: 'YAX4DR',
        total_baggages: '<bag count from the user>',
        nonfree_baggages: 0,
        payment_id: 'credit_card_1',
      };
    });
    expect(summary(placeholder)).toEqual([
      'warning trajectory_prefix_json[0].arguments.total_baggages: a placeholder stands for a value the executed call had (update_reservation_baggages: expected integer, got string)',
    ]);
    const literal = edit(
      stepWise,
      'trajectory_prefix_json',
      (prefix) => (prefix[1]!.arguments = { origin: 'BOS', destination: 'MCO', date: 7 }),
    );
    expect(summary(literal)).toEqual([
      'error trajectory_prefix_json[1].arguments.date: wrong type for search_direct_flight (expected string, got number)',
    ]);
  });

  it('reference calls must name listed tools; their argument problems are warnings', () => {
    const bad = edit(
      edit(stepWise, 'ground_truth_steps_json', (steps) => (steps[0]!.name = 'made_up')),
      'tool_chain_json',
      (chain) => (chain[0]!.parameter_description = { reservation_id: 5 }),
    );
    expect(summary(bad)).toEqual([
      'warning tool_chain_json[0].parameter_description.reservation_id: reference wrong type for get_reservation_details (expected string, got number)',
      'error ground_truth_steps_json[0]: the reference calls "made_up", which is not a listed tool',
    ]);
  });

  it('the reference of a tool-extraneous case must not call a distractor', () => {
    const record = recordOf(
      'holistic_tool_extraneous',
      JSON.parse(lines('holistic_tool_extraneous')[0]!).id,
    );
    const distractor = (JSON.parse(record.extraneous_tool_names_json as string) as string[])[0]!;
    const bad = edit(record, 'tool_chain_json', (chain) => (chain[0]!.name = distractor));
    expect(summary(bad).filter((line) => line.startsWith('error'))).toEqual([
      `error tool_chain_json[0]: the reference calls "${distractor}", which is one of the case's distractors`,
    ]);
  });

  it('a tool-removal case may reference the removed tool; other unsolvable types may not', () => {
    const record = recordOf('holistic_unsolvable', JSON.parse(lines('holistic_unsolvable')[0]!).id);
    const removed = {
      ...record,
      tool_chain_json: JSON.stringify([{ name: 'the_removed_tool', parameter_description: {} }]),
    };
    expect(summary(removed)).toEqual([]);
    expect(summary({ ...removed, unsolvable_type: 'information_missing' })).toEqual([
      'error tool_chain_json[0]: the reference calls "the_removed_tool", which is not a listed tool',
    ]);
  });

  it('every record of both real datasets passes without an error', () => {
    for (const dataset of ['tau2-bench-apb', 'restbench-tmdb-apb']) {
      const root = path.resolve(DATASET, '..', dataset);
      const resolver = new FileResolver(root);
      for (const split of [
        'holistic_planning',
        'step_wise_planning',
        'step_wise_tool_broken',
        'step_wise_tool_extraneous',
      ]) {
        readFileSync(path.join(root, 'data', `${split}.jsonl`), 'utf8')
          .trim()
          .split('\n')
          .forEach((text, index) => {
            const parsed = parseRecordLine(
              text,
              { file: split, line: index + 1, fileSplit: null },
              resolver,
            );
            if (!parsed.ok) throw new Error('invalid fixture');
            expect(
              ruleCheck(parsed.case).filter((issue) => issue.severity === 'error'),
              `${dataset} ${split}:${index + 1}`,
            ).toEqual([]);
          });
      }
    }
  });
});
