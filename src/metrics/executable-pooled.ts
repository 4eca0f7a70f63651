/**
 * Table 3 in the paper's shape: a row per (environment, model), each environment's `do-nothing` floor
 * first among its rows, then a pooled `tau2` row per model over every tau2-bench domain run (the paper
 * reports τ²-bench as one 200-task row). The pooled row is computed from the pooled executions, not
 * averaged from the domain rows: its mean reward weighs every execution alike, as the paper's 200
 * tasks do, and `domains` gives how many tasks each domain brought. Pure.
 */
import { table3, type ExecutionRow, type Table3Row } from './executable.js';

/** The pooled row's environment name. */
export const POOLED_TAU2 = 'tau2';

const isTau2 = (env: string) => env.startsWith(`${POOLED_TAU2}:`);

/** Floor rows first within each environment; environments in their first appearance's order. */
function floorFirst(rows: readonly Table3Row[]): Table3Row[] {
  const envs = [...new Set(rows.map((row) => row.env))];
  return envs.flatMap((env) => {
    const own = rows.filter((row) => row.env === env);
    return [...own.filter((row) => row.floor), ...own.filter((row) => !row.floor)];
  });
}

/** Tasks per domain (`tau2:retail` → `retail`) of one model's pooled executions. */
function domainsOf(rows: readonly ExecutionRow[]): Record<string, number> {
  const tasks = new Map<string, Set<string>>();
  for (const row of rows) {
    const domain = row.env.slice(POOLED_TAU2.length + 1);
    tasks.set(domain, (tasks.get(domain) ?? new Set()).add(row.taskId));
  }
  return Object.fromEntries([...tasks].map(([domain, ids]) => [domain, ids.size]));
}

/** The pooled `tau2` rows (one per model, the floor's first), or none when no tau2 domain was run. */
export function pooledTau2Rows(rows: readonly ExecutionRow[]): Table3Row[] {
  const tau2 = rows.filter((row) => isTau2(row.env));
  if (tau2.length === 0) return [];
  // Task ids repeat across domains (retail and airline both have "0"): the pooled task is (domain, id).
  const pooled = tau2.map((row) => ({
    ...row,
    env: POOLED_TAU2,
    taskId: `${row.env}\u0000${row.taskId}`,
  }));
  return floorFirst(table3(pooled)).map((row) => ({
    ...row,
    domains: domainsOf(
      tau2.filter((item) => item.model === row.model && Boolean(item.floor) === Boolean(row.floor)),
    ),
  }));
}

/** Table 3 as the reports print it: per environment (floor first), then the pooled tau2 rows. */
export function table3Report(rows: readonly ExecutionRow[]): Table3Row[] {
  return [...floorFirst(table3(rows)), ...pooledTau2Rows(rows)];
}
