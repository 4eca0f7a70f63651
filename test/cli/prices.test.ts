/**
 * data/prices.json and its refresh (issue 26): scripts/refresh-prices.mjs reads each row's model id
 * off its pattern to price it from the catalogue; every id it reads must be one the row matches,
 * else a refresh would price another model. The table's date is shown where reports show a cost.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { modelIdOf } from '../../scripts/refresh-prices.mjs';
import { execMarkdown } from '../../src/report/exec-report.js';
import type { ExecScores } from '../../src/execution/exec-scores.js';

const table = JSON.parse(readFileSync('data/prices.json', 'utf8')) as {
  as_of: string;
  models: { model: string }[];
};

describe('data/prices.json', () => {
  it('gives every row a plain model id its own pattern matches', () => {
    for (const row of table.models) {
      const id = modelIdOf(row.model);
      expect(id, row.model).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
      expect(new RegExp(row.model, 'i').test(id), `${row.model} → ${id}`).toBe(true);
    }
    expect(modelIdOf('^claude-3-5-haiku(-\\d{8}|-latest)?$')).toBe('claude-3-5-haiku');
    expect(modelIdOf('^gpt-4\\.1(-\\d{4}-\\d{2}-\\d{2})?$')).toBe('gpt-4.1');
  });

  it('names its date beside the exec report costs', () => {
    const scores = {
      schema_version: 1,
      executions: 0,
      openings: 0,
      terminations: {},
      outcomes: {},
      failure_reasons: [],
      usage: {},
      prices_as_of: table.as_of,
      tables: { table3: [] },
    } as unknown as ExecScores;
    expect(execMarkdown(scores)).toContain(
      `Costs at the prices of data/prices.json as of ${table.as_of}`,
    );
  });
});
