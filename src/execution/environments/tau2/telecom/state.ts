/**
 * A telecom session's two databases as one `DatabaseState`: the agent side's records and the
 * user's phone. tau2's DB check hashes both (`check_db` and `check_user_db`); two states are equal
 * when both sides are. The databases are small (12 KB and 1.5 KB), so a session owns a full copy.
 */
import type { DatabaseDifference, DatabaseState } from '../../../environment.js';
import { sameJson } from '../database.js';
import type { TelecomState } from './model.js';

function recordKey(record: unknown, index: number): string {
  const fields = record && typeof record === 'object' ? Object.values(record) : [];
  return typeof fields[0] === 'string' ? fields[0] : String(index);
}

function listDifferences(
  collection: string,
  actual: unknown[],
  expected: unknown[],
): DatabaseDifference[] {
  const found: DatabaseDifference[] = [];
  for (let index = 0; index < Math.max(actual.length, expected.length); index += 1)
    if (!sameJson(actual[index], expected[index]))
      found.push({
        collection,
        key: recordKey(actual[index] ?? expected[index], index),
        expected: expected[index],
        actual: actual[index],
      });
  return found;
}

/** The live state of a telecom session, read as a database state. */
export class TelecomDatabase implements DatabaseState {
  constructor(readonly state: TelecomState) {}

  private other(other: DatabaseState): TelecomState {
    if (!(other instanceof TelecomDatabase))
      throw new Error('databases of different environments cannot be compared');
    return other.state;
  }

  equals(other: DatabaseState): boolean {
    const that = this.other(other);
    return sameJson(this.state.agent, that.agent) && sameJson(this.state.user, that.user);
  }

  differences(expected: DatabaseState): DatabaseDifference[] {
    const that = this.other(expected);
    const found: DatabaseDifference[] = [];
    for (const [name, records] of Object.entries(this.state.agent))
      found.push(
        ...listDifferences(
          `agent.${name}`,
          records as unknown[],
          that.agent[name as keyof TelecomState['agent']] as unknown[],
        ),
      );
    for (const side of ['device', 'surroundings'] as const)
      if (!sameJson(this.state.user[side], that.user[side]))
        found.push({
          collection: 'user',
          key: side,
          expected: that.user[side],
          actual: this.state.user[side],
        });
    return found;
  }

  /** Both databases: `{"agent": …, "user": …}` (what `--dump-db` writes for telecom). */
  toJson(): Record<string, unknown> {
    return { agent: this.state.agent, user: this.state.user };
  }
}
