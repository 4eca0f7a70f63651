/**
 * ToolSandbox's milestones and minefields: a DAG of expected (or, for minefields, forbidden) world
 * states, each a list of snapshot constraints. A trajectory is scored by the best mapping of
 * milestones onto message snapshots, in an order that is a topological order of the DAG, found
 * by ToolSandbox's pruned depth-first search; guardrail constraints are added so that databases a
 * milestone does not mention stay as they were.
 */
import {
  columnMeasure,
  DEFAULT_COLUMN_MEASURES,
  type ColumnMeasureSpec,
} from './column-measures.js';
import type { ExecutionContext } from './execution-context.js';
import type { Frame } from './frame.js';
import { NAMESPACES, SCHEMAS, type Namespace } from './schemas.js';
import {
  additionSimilarity,
  guardrailSimilarity,
  removalSimilarity,
  snapshotSimilarity,
  updateSimilarity,
  type MeasureInput,
} from './snapshot-measures.js';
import { toolTraceDependantSimilarity } from './tool-trace-dependant.js';

/** A snapshot measure's name in scenario data. */
export type SnapshotMeasureName =
  'snapshot' | 'addition' | 'removal' | 'update' | 'guardrail' | 'tool_trace_dependant';

/** One constraint of a milestone (ToolSandbox's SnapshotConstraint), as scenario data holds it. */
export interface SnapshotConstraint {
  database_namespace: Namespace;
  snapshot_constraint: SnapshotMeasureName;
  /** The milestone whose snapshot is the reference; -1 is the first user message; null none. */
  reference_milestone_node_index: number | null;
  target_dataframe: Frame | null;
  /** Overrides of the database's default column measures. */
  column_similarity_measure: Record<string, ColumnMeasureSpec> | null;
  /** tool_trace_dependant only. */
  fill_to?: 'tool_trace' | 'content';
  extractor?: string;
}

/** A milestone or a minefield. */
export interface Milestone {
  snapshot_constraints: SnapshotConstraint[];
  /** Databases guarded against change (default: all); the exclusion list removes some. */
  guardrail_database_list: Namespace[] | null;
  guardrail_database_exclusion_list: Namespace[] | null;
}

/** A milestone's similarity for one snapshot given the milestones already mapped. */
export function constraintSimilarity(
  context: ExecutionContext,
  constraint: SnapshotConstraint,
  current: number,
  reference: number | null,
): number {
  const ns = constraint.database_namespace;
  const measures: MeasureInput['columns'] = {};
  const specs = { ...DEFAULT_COLUMN_MEASURES[ns] } as Record<string, ColumnMeasureSpec | string>;
  Object.assign(specs, constraint.column_similarity_measure ?? {});
  for (const [column, spec] of Object.entries(specs))
    measures[column] = columnMeasure(
      typeof spec === 'string' ? ({ kind: spec } as ColumnMeasureSpec) : spec,
    );
  const input: MeasureInput = {
    snapshot: context.getFrame(ns, { index: current }),
    target: constraint.target_dataframe,
    columns: measures,
    reference: reference === null ? null : context.getFrame(ns, { index: reference }),
    types: SCHEMAS[ns],
  };
  switch (constraint.snapshot_constraint) {
    case 'snapshot':
      return snapshotSimilarity(input);
    case 'addition':
      return additionSimilarity(input);
    case 'removal':
      return removalSimilarity(input);
    case 'update':
      return updateSimilarity(input);
    case 'guardrail':
      return guardrailSimilarity(input);
    case 'tool_trace_dependant':
      return toolTraceDependantSimilarity(input, {
        fillTo: constraint.fill_to!,
        extractor: constraint.extractor!,
      });
  }
}

/** Python's list indexing, negative indices from the end (ToolSandbox indexes milestones[-1]). */
function at<T>(list: readonly T[], index: number): T {
  const item = list[index < 0 ? list.length + index : index];
  if (item === undefined) throw new RangeError(`list index ${index} out of range`);
  return item;
}

/** The DAG of a milestone list: nodes are those in the edges (or node 0 alone for one milestone). */
export class MilestoneDag {
  readonly nodes: number[];
  readonly edges: [number, number][];

  constructor(count: number, edges: [number, number][] | null) {
    this.edges = edges ?? Array.from({ length: Math.max(count - 1, 0) }, (_, i) => [i, i + 1]);
    if (count === 1) this.nodes = [0];
    else this.nodes = [...new Set(this.edges.flat())];
  }

  predecessors(node: number, within: ReadonlySet<number> = new Set(this.nodes)): number[] {
    return this.edges.filter(([a, b]) => b === node && within.has(a)).map(([a]) => a);
  }
}

/**
 * The milestones with ToolSandbox's guardrails added: for each milestone, every guarded
 * database that neither it, its reference milestones nor its predecessors constrain must equal
 * its state at each of those reference and predecessor milestones.
 */
export function withGuardrails(milestones: readonly Milestone[], dag: MilestoneDag): Milestone[] {
  const out = milestones.map((m) => ({ ...m, snapshot_constraints: [...m.snapshot_constraints] }));
  for (const i of dag.nodes) {
    const references = new Set<number>();
    for (const c of out[i]!.snapshot_constraints)
      if (c.reference_milestone_node_index !== null)
        references.add(c.reference_milestone_node_index);
    const predecessors = new Set(dag.predecessors(i));
    const guarded = new Set<Namespace>(guardedDatabases(out[i]!));
    guarded.delete('sandbox');
    for (const j of new Set([i, ...references, ...predecessors]))
      for (const c of at(out, j).snapshot_constraints)
        if (c.snapshot_constraint !== 'guardrail') guarded.delete(c.database_namespace);
    for (const reference of new Set([...references, ...predecessors]))
      for (const ns of guarded) {
        // exported scenarios already carry ToolSandbox's guardrails: adding one twice is a no-op
        const present = out[i]!.snapshot_constraints.some(
          (c) =>
            c.snapshot_constraint === 'guardrail' &&
            c.database_namespace === ns &&
            c.reference_milestone_node_index === reference,
        );
        if (present) continue;
        out[i]!.snapshot_constraints.push({
          database_namespace: ns,
          snapshot_constraint: 'guardrail',
          reference_milestone_node_index: reference,
          target_dataframe: null,
          column_similarity_measure: null,
        });
      }
  }
  return out;
}

function guardedDatabases(milestone: Milestone): Namespace[] {
  if (
    milestone.guardrail_database_list !== null &&
    milestone.guardrail_database_exclusion_list !== null
  )
    throw new Error(
      'Only one of guardrail_database_list, guardrail_database_exclusion_list should be set',
    );
  const list = milestone.guardrail_database_list ?? [...NAMESPACES];
  const excluded = milestone.guardrail_database_exclusion_list ?? [];
  return list.filter((ns) => !excluded.includes(ns));
}
