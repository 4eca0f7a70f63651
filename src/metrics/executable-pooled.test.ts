/** Table 3 in the paper's shape: floors first per environment, the pooled tau2 row, by hand. */
import { describe, expect, it } from 'vitest';
import type { ExecutionRow } from './executable.js';
import { table3Report } from './executable-pooled.js';

const row = (
  env: string,
  taskId: string,
  reward: number | null,
  extra: Partial<ExecutionRow> = {},
): ExecutionRow => ({
  env,
  model: 'm',
  mode: 'direct',
  taskId,
  trial: 0,
  reward,
  rewardIfNlMet: reward,
  infrastructureError: false,
  planBefore: null,
  planAfter: null,
  ...extra,
});

describe('table3Report', () => {
  it('puts each floor first, pools the tau2 domains per execution, and keeps same-id tasks apart', () => {
    const rows = [
      row('tau2:retail', '0', 1),
      row('tau2:retail', '1', 0),
      row('tau2:retail', '2', 1),
      row('tau2:airline', '0', 0),
      row('tau2:retail', '0', 0, { model: 'do-nothing', floor: true }),
      row('tau2:retail', '1', 1, { model: 'do-nothing', floor: true }),
      row('tau2:retail', '2', null, { model: 'do-nothing', floor: true, rewardIfNlMet: 1 }),
      row('tau2:airline', '0', 1, { model: 'do-nothing', floor: true }),
    ];
    const table = table3Report(rows);
    expect(table.map((entry) => [entry.env, entry.model, entry.floor ?? false])).toEqual([
      ['tau2:retail', 'do-nothing', true],
      ['tau2:retail', 'm', false],
      ['tau2:airline', 'do-nothing', true],
      ['tau2:airline', 'm', false],
      ['tau2', 'do-nothing', true],
      ['tau2', 'm', false],
    ]);
    const pooled = table[5]!;
    // (1 + 0 + 1 + 0) / 4 executions; retail's "0" and airline's "0" are two tasks.
    expect(pooled).toMatchObject({ direct: 0.5, n: 4, metric: 'reward' });
    expect(pooled.domains).toEqual({ retail: 3, airline: 1 });
    // The floor: (0 + 1 + 1) / 3 rewarded, the unjudged one left out and counted.
    const floor = table[4]!;
    expect(floor.direct).toBeCloseTo(2 / 3, 12);
    expect(floor.detail.modes.direct).toMatchObject({ runs: 3, unevaluated: 1 });
    expect(floor.domains).toEqual({ retail: 3, airline: 1 });
  });

  it('has no pooled row without a tau2 domain, and names the metric per environment', () => {
    const table = table3Report([row('toolsandbox', 's1', 0.5)]);
    expect(table.map((entry) => [entry.env, entry.metric])).toEqual([
      ['toolsandbox', 'similarity'],
    ]);
  });
});
