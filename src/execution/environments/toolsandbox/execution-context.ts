/**
 * ToolSandbox's execution context: the world state of one conversation. Every database keeps its
 * whole history; a change made while message N+1 is handled lands in a snapshot stamped
 * `sandbox_message_index = N+1`, copied from the most recent one, so the world as it stood after
 * any message can be read back. Each database starts with an all-null "headguard" row so that an
 * empty snapshot can still be represented.
 */
import { cellsEqual, type Cell, type Frame, type Row } from './frame.js';
import {
  columnsOf,
  DEFAULT_SETTINGS,
  INDEX_COLUMN,
  NAMESPACES,
  type Namespace,
} from './schemas.js';

/** Raised where ToolSandbox raises KeyError / ValueError / NoDataError on a database operation. */
export class DatabaseError extends Error {}

/** Options of `getDatabase` (ToolSandbox's `get_database` keywords). */
export interface GetDatabaseOptions {
  /** The message the snapshot belongs to; default: after the last message. */
  index?: number;
  /** Every snapshot up to `index`, not just the last one. */
  allHistory?: boolean;
  /** Keep the `sandbox_message_index` column (dropped by default). */
  keepIndex?: boolean;
  /** Keep the headguard rows (dropped by default; only for debugging). */
  keepHeadguard?: boolean;
}

function headguard(namespace: Namespace, index: number): Row {
  const row: Row = {};
  for (const column of columnsOf(namespace)) row[column] = column === INDEX_COLUMN ? index : null;
  return row;
}

/** True for an all-null row (the headguard), `sandbox_message_index` aside. */
export function isHeadguard(row: Row): boolean {
  return Object.entries(row).every(([column, value]) => column === INDEX_COLUMN || value === null);
}

function cloneRow(row: Row): Row {
  const copy: Row = {};
  for (const [column, value] of Object.entries(row))
    copy[column] = Array.isArray(value) ? [...(value as string[])] : value;
  return copy;
}

/** The world state of one conversation: five databases with their snapshot history. */
export class ExecutionContext {
  private readonly dbs: Record<Namespace, Row[]>;

  constructor(dbs?: Record<Namespace, Row[]>) {
    if (dbs) {
      this.dbs = dbs;
      return;
    }
    this.dbs = Object.fromEntries(NAMESPACES.map((ns) => [ns, [headguard(ns, 0)]])) as Record<
      Namespace,
      Row[]
    >;
    this.dbs.setting.push({ [INDEX_COLUMN]: 0, ...DEFAULT_SETTINGS });
  }

  /** A deep copy: a scenario's starting context is copied for every run. */
  clone(): ExecutionContext {
    const dbs = Object.fromEntries(
      NAMESPACES.map((ns) => [ns, this.dbs[ns].map(cloneRow)]),
    ) as Record<Namespace, Row[]>;
    return new ExecutionContext(dbs);
  }

  /** Every row of a database, all snapshots and headguards included (for serialisation). */
  rawRows(namespace: Namespace): readonly Row[] {
    return this.dbs[namespace];
  }

  /** The index of the last message, or -1 before the first. */
  get maxSandboxMessageIndex(): number {
    let max = -1;
    for (const row of this.dbs.sandbox)
      if (!isHeadguard(row)) max = Math.max(max, row[INDEX_COLUMN] as number);
    return max;
  }

  /**
   * The index of the first message the user sent, user-simulator few-shot examples (visible to the
   * user alone) skipped: the snapshot there is the world's starting state. -1 when there is none.
   */
  get firstUserSandboxMessageIndex(): number {
    for (const row of this.getDatabase('sandbox', { allHistory: true, keepIndex: true })) {
      if (row.sender !== 'user') continue;
      if (row.visible_to === null || !isOnlyUser(row.visible_to))
        return row[INDEX_COLUMN] as number;
    }
    return -1;
  }

  /** The index of the most recent snapshot of `namespace` no later than `query`. */
  mostRecentSnapshotIndex(namespace: Namespace, query: number): number {
    const rows = this.dbs[namespace];
    if (rows.every(isHeadguard)) return -1;
    const indices = [...new Set(rows.map((row) => row[INDEX_COLUMN] as number))].sort(
      (a, b) => a - b,
    );
    const limit = this.maxSandboxMessageIndex + 1;
    if (query > limit)
      throw new RangeError(
        `query_index=${query} is larger than the largest available sandbox_message_index + 1 = ${limit} in Sandbox DB.`,
      );
    // bisect_right(indices, query) - 1, clamped to the first snapshot
    let position = 0;
    while (position < indices.length && indices[position]! <= query) position++;
    return indices[Math.max(position - 1, 0)]!;
  }

  /** The database as it stood after message `index` (default: now). */
  getDatabase(namespace: Namespace, options: GetDatabaseOptions = {}): Row[] {
    const index = options.index ?? this.maxSandboxMessageIndex + 1;
    const target = this.mostRecentSnapshotIndex(namespace, index);
    let rows = this.dbs[namespace].filter((row) =>
      options.allHistory ? (row[INDEX_COLUMN] as number) <= target : row[INDEX_COLUMN] === target,
    );
    if (!options.keepHeadguard) rows = rows.filter((row) => !isHeadguard(row));
    if (!options.keepIndex)
      rows = rows.map((row) => {
        const copy = { ...row };
        delete copy[INDEX_COLUMN];
        return copy;
      });
    return rows;
  }

  /** `getDatabase` as a frame with the schema's columns. */
  getFrame(namespace: Namespace, options: GetDatabaseOptions = {}): Frame {
    const columns = columnsOf(namespace).filter((c) => options.keepIndex || c !== INDEX_COLUMN);
    return { columns, rows: this.getDatabase(namespace, options) };
  }

  /** The distinct snapshot indices of a database, in the order they first appear. */
  snapshotIndices(namespace: Namespace): number[] {
    return [...new Set(this.dbs[namespace].map((row) => row[INDEX_COLUMN] as number))];
  }

  private maybeCreateSnapshot(namespace: Namespace): void {
    const next = this.maxSandboxMessageIndex + 1;
    const rows = this.dbs[namespace];
    if (rows.some((row) => row[INDEX_COLUMN] === next)) return;
    const recent = this.mostRecentSnapshotIndex(namespace, next - 1);
    const copies = rows
      .filter((row) => row[INDEX_COLUMN] === recent)
      .map((row) => ({ ...cloneRow(row), [INDEX_COLUMN]: next }));
    rows.push(...copies);
  }

  /**
   * Adds rows. To a world database: into the snapshot of the message being handled (created on
   * first change). To `sandbox`: as new messages, each taking the next index and inheriting
   * `conversation_active` from the one before when it sets none.
   */
  addToDatabase(namespace: Namespace, rows: Row[]): void {
    const schema = columnsOf(namespace);
    const unknown = [...new Set(rows.flatMap(Object.keys))].filter((c) => !schema.includes(c));
    if (unknown.length > 0)
      throw new DatabaseError(
        `Only column names {${schema.join(', ')}} are allowed for namespace ${namespace}. Found unknown column name {${unknown.join(', ')}}`,
      );
    for (const row of rows)
      if (schema.every((c) => c === INDEX_COLUMN || row[c] === undefined || row[c] === null))
        throw new DatabaseError(
          'Cannot add row with all None values. All None values are reserved for headguard',
        );
    const full = rows.map((row) => {
      const out: Row = {};
      for (const column of schema) out[column] = cloneCell(row[column] ?? null);
      return out;
    });
    if (namespace !== 'sandbox') {
      this.maybeCreateSnapshot(namespace);
      const index = this.maxSandboxMessageIndex + 1;
      for (const row of full) row[INDEX_COLUMN] = index;
    } else {
      const current = this.getDatabase('sandbox');
      let active: Cell = current.length === 0 ? true : current.at(-1)!.conversation_active!;
      let index = this.maxSandboxMessageIndex + 1;
      for (const row of full) {
        row[INDEX_COLUMN] = index++;
        if (row.conversation_active === null) row.conversation_active = active;
        active = row.conversation_active;
      }
    }
    this.dbs[namespace].push(...full);
  }

  /** Removes the rows matching `predicate` from the snapshot of the message being handled. */
  removeFromDatabase(namespace: Namespace, predicate: (row: Row) => boolean): void {
    if (namespace === 'sandbox')
      throw new DatabaseError('Removal from SANDBOX database is not allowed');
    const index = this.maxSandboxMessageIndex + 1;
    this.maybeCreateSnapshot(namespace);
    const matches = (row: Row) => row[INDEX_COLUMN] === index && predicate(row);
    if (!this.dbs[namespace].some(matches))
      throw new DatabaseError('No db entry matching predicate found');
    this.dbs[namespace] = this.dbs[namespace].filter((row) => !matches(row) || isHeadguard(row));
  }

  /**
   * Replaces the current snapshot with `rows` (ToolSandbox's `update_database`): for a world
   * database the snapshot of the message being handled, for `sandbox` the last message's.
   */
  updateDatabase(namespace: Namespace, rows: Row[]): void {
    let index: number;
    if (namespace !== 'sandbox') {
      this.maybeCreateSnapshot(namespace);
      index = this.maxSandboxMessageIndex + 1;
    } else index = this.maxSandboxMessageIndex;
    const schema = columnsOf(namespace);
    const replacement = [
      headguard(namespace, index),
      ...rows
        .filter((row) => !isHeadguard(row))
        .map((row) => {
          const out: Row = {};
          for (const column of schema)
            out[column] = column === INDEX_COLUMN ? index : cloneCell(row[column] ?? null);
          return out;
        }),
    ];
    this.dbs[namespace] = [
      ...this.dbs[namespace].filter((row) => row[INDEX_COLUMN] !== index),
      ...replacement,
    ];
  }
}

function cloneCell(value: Cell): Cell {
  return Array.isArray(value) ? [...(value as string[])] : value;
}

/** `visible_to == [user]`: a user-simulator few-shot message. */
export function isOnlyUser(visibleTo: Cell): boolean {
  return cellsEqual(visibleTo, ['user']);
}
