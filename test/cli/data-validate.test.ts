import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { holisticRecord, writeDataset } from '../helpers/dataset.js';

describe('apb data validate: the rule check (paper B.2)', () => {
  it('an unlisted tool in a prefix or a reference chain is an error with FILE:LINE: field, exit 1', async () => {
    const stepWise = holisticRecord({
      id: 'sp-1',
      split: 'step_wise_planning',
      planning_regime: 'Step-wise',
      plan: null,
      prediction_horizon: 1,
      trajectory_prefix_json: JSON.stringify([
        {
          step: 1,
          thought: 'look',
          tool: 'nonexistent_tool_xyz',
          arguments: {},
          observation: 'ok',
        },
      ]),
      ground_truth_steps_json: JSON.stringify([
        { name: 'book_flight', parameter_description: { flight_id: 'F1', passenger: 'Ana Silva' } },
      ]),
    });
    const chain = holisticRecord({
      tool_chain_json: JSON.stringify([{ name: 'find_flight', parameter_description: {} }]),
    });
    const data = writeDataset({
      holistic_planning: [JSON.stringify(chain)],
      step_wise_planning: [JSON.stringify(stepWise)],
    });
    const result = await runCli(['data', 'validate', data]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /holistic_planning\.jsonl:1: tool_chain_json\[0\]: the reference calls "find_flight", which is not a listed tool/,
    );
    expect(result.stdout).toMatch(
      /step_wise_planning\.jsonl:1: trajectory_prefix_json\[0\]\.tool: calls "nonexistent_tool_xyz", which is not a listed tool/,
    );
    expect(result.stderr).toMatch(
      /rule check \(paper B\.2\): 2 error\(s\) in 2 record\(s\), 0 warning\(s\)/,
    );
  });

  it('warnings are printed but do not fail; --no-warnings hides them', async () => {
    const record = holisticRecord({
      tool_chain_json: JSON.stringify([
        {
          name: 'find_flights',
          parameter_description: { origin: 'LIS', destination: 'OPO', date: 20261203 },
        },
      ]),
    });
    const data = writeDataset({ holistic_planning: [JSON.stringify(record)] });
    const shown = await runCli(['data', 'validate', data]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /holistic_planning\.jsonl:1: tool_chain_json\[0\]\.parameter_description\.date: warning: reference wrong type for find_flights/,
    );
    const hidden = await runCli(['data', 'validate', data, '--no-warnings']);
    expect(hidden.code).toBe(0);
    expect(hidden.stdout).toBe('');
    expect(hidden.stderr).toMatch(/0 error\(s\) in 0 record\(s\), 1 warning\(s\)/);
  });
});
