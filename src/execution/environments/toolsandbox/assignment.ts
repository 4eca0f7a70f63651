/**
 * The minimum-cost one-to-one assignment of a square cost matrix (scipy's
 * `linear_sum_assignment`, used by ToolSandbox's snapshot similarity), by the Hungarian method.
 * Infinite costs are forbidden pairs; a matrix with no finite assignment is infeasible.
 */

/** The minimum total cost and the column chosen for each row, or null when infeasible. */
export function minimumAssignment(cost: readonly (readonly number[])[]): {
  total: number;
  columns: number[];
} | null {
  const n = cost.length;
  if (n === 0) return { total: 0, columns: [] };
  // forbidden pairs cost more than any finite assignment can (finite costs here are < 1e3)
  const big = 1e12;
  const a = cost.map((row) => row.map((c) => (Number.isFinite(c) ? c : big)));
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(n + 1).fill(0);
  const match = new Array<number>(n + 1).fill(0); // column j -> row (1-based)
  const way = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    match[0] = i;
    let j0 = 0;
    const minv = new Array<number>(n + 1).fill(Infinity);
    const used = new Array<boolean>(n + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = match[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const current = a[i0 - 1]![j - 1]! - u[i0]! - v[j]!;
        if (current < minv[j]!) {
          minv[j] = current;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[match[j]!] = u[match[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (match[j0] !== 0);
    do {
      const j1 = way[j0]!;
      match[j0] = match[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const columns = new Array<number>(n).fill(0);
  for (let j = 1; j <= n; j++) columns[match[j]! - 1] = j - 1;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const c = cost[i]![columns[i]!]!;
    if (!Number.isFinite(c)) return null;
    total += c;
  }
  return { total, columns };
}
