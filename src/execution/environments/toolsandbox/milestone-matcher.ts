/**
 * The best mapping of milestones onto snapshots (ToolSandbox's MilestoneMatcher): a depth-first
 * search over the DAG's topological orders, each step trying every (ready milestone, snapshot at
 * or after the last mapped one) pair best-first, pruning branches that cannot beat the best sum,
 * with each constraint's similarity cached per (snapshot, reference snapshot).
 */
import type { ExecutionContext } from './execution-context.js';
import {
  constraintSimilarity,
  MilestoneDag,
  withGuardrails,
  type Milestone,
} from './milestones.js';

/** milestone index -> [snapshot index, similarity], in the order they were mapped. */
export type MilestoneMapping = Map<number, [number, number]>;

class CachedMilestone {
  private readonly cache: Map<string, number>[];

  constructor(
    private readonly context: ExecutionContext,
    private readonly milestone: Milestone,
    private readonly firstUserIndex: number,
  ) {
    this.cache = milestone.snapshot_constraints.map(() => new Map());
  }

  /** The geometric mean of the constraints' similarities, guardrails not counted in the root. */
  similarity(current: number, mapping: MilestoneMapping): number {
    let product = 1;
    let count = 0;
    this.milestone.snapshot_constraints.forEach((constraint, k) => {
      const ref = constraint.reference_milestone_node_index;
      let reference: number | null;
      if (ref === null) reference = null;
      else if (ref === -1) reference = this.firstUserIndex;
      else {
        const mapped = mapping.get(ref);
        if (!mapped) throw new Error(`milestone ${ref} is referenced before it is mapped`);
        reference = mapped[0];
      }
      const key = `${current}:${reference}`;
      let value = this.cache[k]!.get(key);
      if (value === undefined) {
        value = constraintSimilarity(this.context, constraint, current, reference);
        this.cache[k]!.set(key, value);
      }
      product *= value;
      if (constraint.snapshot_constraint !== 'guardrail') count++;
    });
    return Math.pow(product, 1 / count);
  }
}

interface Search {
  calculators: CachedMilestone[];
  dag: MilestoneDag;
  minIndex: number;
  maxIndex: number;
}

function dfs(
  search: Search,
  assigned: MilestoneMapping,
  assignedSum: number,
  remaining: Set<number>,
): [MilestoneMapping, number] {
  if (remaining.size === 0) return [assigned, assignedSum];
  const last = assigned.size > 0 ? [...assigned.values()].at(-1)![0] : search.minIndex;
  const candidates: [number, number, number][] = [];
  for (const milestone of remaining) {
    if (search.dag.predecessors(milestone, remaining).length > 0) continue;
    for (let snapshot = search.maxIndex; snapshot >= last; snapshot--)
      candidates.push([
        -search.calculators[milestone]!.similarity(snapshot, assigned),
        milestone,
        snapshot,
      ]);
  }
  // heapq pops tuples in ascending order: best similarity, then lowest milestone, then snapshot
  candidates.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  let best: MilestoneMapping = new Map();
  let bestSum = -1;
  for (const [negative, milestone, snapshot] of candidates) {
    const similarity = -negative;
    if (assignedSum + similarity + remaining.size - 1 <= bestSum) continue;
    const mapping: MilestoneMapping = new Map(assigned);
    mapping.set(milestone, [snapshot, similarity]);
    const rest = new Set(remaining);
    rest.delete(milestone);
    const [found, sum] = dfs(search, mapping, assignedSum + similarity, rest);
    if (sum > bestSum) {
      best = found;
      bestSum = sum;
    }
  }
  return [best, bestSum];
}

/** The best mapping and the mean similarity over all milestones; null similarity for an empty DAG. */
export function matchMilestones(
  milestones: readonly Milestone[],
  edges: [number, number][] | null,
  context: ExecutionContext,
): { mapping: MilestoneMapping; similarity: number | null } {
  const dag = new MilestoneDag(milestones.length, edges);
  if (dag.nodes.length === 0) return { mapping: new Map(), similarity: null };
  const guarded = withGuardrails(milestones, dag);
  const first = context.firstUserSandboxMessageIndex;
  const search: Search = {
    calculators: guarded.map((m) => new CachedMilestone(context, m, first)),
    dag,
    minIndex: first,
    maxIndex: context.maxSandboxMessageIndex,
  };
  const [mapping, sum] = dfs(search, new Map(), 0, new Set(dag.nodes));
  return { mapping, similarity: sum / milestones.length };
}
