// ToolSandbox's execution-context tests (upstream tests/common/execution_context_test.py, Apple's
// licence: data/toolsandbox/LICENSE): the same fixture and expectations against the port.
import { describe, expect, it } from 'vitest';
import {
  DatabaseError,
  ExecutionContext,
} from '../../src/execution/environments/toolsandbox/execution-context.js';
import type { Row } from '../../src/execution/environments/toolsandbox/frame.js';
import { columnsOf, type Namespace } from '../../src/execution/environments/toolsandbox/schemas.js';

function full(ns: Namespace, row: Row): Row {
  return Object.fromEntries(columnsOf(ns).map((c) => [c, row[c] ?? null]));
}
const guard = (ns: Namespace, i: number) => full(ns, { sandbox_message_index: i });
const message = (i: number, sender: string, recipient: string, content: string) =>
  full('sandbox', {
    sandbox_message_index: i,
    sender,
    recipient,
    content,
    conversation_active: true,
  });
const setting = (i: number, cellular: boolean, wifi = false) =>
  full('setting', {
    sandbox_message_index: i,
    device_id: '1',
    cellular,
    wifi,
    location_service: true,
    low_battery_mode: false,
    latitude: 0,
    longitude: 0,
  });

/** upstream's `populated_execution_context` fixture. */
function populated(): ExecutionContext {
  const empty = (ns: Namespace) => [guard(ns, 0)];
  return new ExecutionContext({
    sandbox: [
      guard('sandbox', 0),
      message(0, 'system', 'agent', 'Be Good'),
      guard('sandbox', 1),
      message(1, 'system', 'user', 'Be Good'),
      guard('sandbox', 2),
      message(2, 'system', 'execution_environment', 'import json\n'),
      guard('sandbox', 3),
      message(3, 'user', 'agent', 'Hi'),
    ],
    setting: [
      guard('setting', 0),
      guard('setting', 1),
      setting(1, true),
      guard('setting', 3),
      setting(3, false),
    ],
    contact: empty('contact'),
    messaging: empty('messaging'),
    reminder: empty('reminder'),
  });
}

describe('ExecutionContext', () => {
  it('max_sandbox_message_index: -1 when empty, then the last message', () => {
    const context = new ExecutionContext();
    expect(context.maxSandboxMessageIndex).toBe(-1);
    context.addToDatabase('sandbox', [
      { sender: 'system', recipient: 'agent', content: 'Be Good' },
    ]);
    expect(context.maxSandboxMessageIndex).toBe(0);
  });

  it('most recent snapshot: -1 for an empty database; bisects; refuses past the last message + 1', () => {
    expect(new ExecutionContext().mostRecentSnapshotIndex('messaging', 1)).toBe(-1);
    const context = populated();
    expect(context.mostRecentSnapshotIndex('setting', 0)).toBe(0);
    expect(context.mostRecentSnapshotIndex('setting', 2)).toBe(1);
    expect(context.mostRecentSnapshotIndex('setting', 4)).toBe(3);
    expect(() => context.mostRecentSnapshotIndex('setting', 5)).toThrow(RangeError);
  });

  it('get_database: latest by default, earlier snapshots, history, headguard kept on request', () => {
    const context = populated();
    expect(context.getDatabase('setting', { keepIndex: true })).toEqual([setting(3, false)]);
    expect(context.getDatabase('setting', { index: 2, keepIndex: true })).toEqual([
      setting(1, true),
    ]);
    expect(context.getDatabase('setting', { allHistory: true, keepIndex: true })).toEqual([
      setting(1, true),
      setting(3, false),
    ]);
    expect(context.getDatabase('setting', { keepHeadguard: true, keepIndex: true })).toEqual([
      guard('setting', 3),
      setting(3, false),
    ]);
  });

  it('add_to_database: unknown columns refused; messages take the next indices; a snapshot is made once', () => {
    const context = populated();
    expect(() => context.addToDatabase('sandbox', [{ wrong_name: 'test' }])).toThrow(DatabaseError);
    context.addToDatabase('sandbox', [
      { sender: 'agent', recipient: 'user', content: 'Hey', conversation_active: true },
      { sender: 'user', recipient: 'agent', content: 'Howdy', conversation_active: true },
    ]);
    const log = context.getDatabase('sandbox', { allHistory: true, keepIndex: true });
    expect(log.slice(-2)).toEqual([
      message(4, 'agent', 'user', 'Hey'),
      message(5, 'user', 'agent', 'Howdy'),
    ]);
    const { sandbox_message_index: _, ...row } = setting(0, true);
    context.addToDatabase('setting', [row]);
    expect(context.getDatabase('setting', { keepIndex: true })).toEqual([
      setting(6, false),
      setting(6, true),
    ]);
    context.addToDatabase('setting', [{ ...row, wifi: true }]);
    expect(context.getDatabase('setting', { keepIndex: true })).toEqual([
      setting(6, false),
      setting(6, true),
      setting(6, true, true),
    ]);
  });

  it('remove_from_database: never from the log; the headguard stays in the new snapshot', () => {
    const context = populated();
    expect(() => context.removeFromDatabase('sandbox', () => true)).toThrow(DatabaseError);
    context.removeFromDatabase('setting', (row) => row.cellular === false);
    expect(context.mostRecentSnapshotIndex('setting', 4)).toBe(4);
    expect(context.getDatabase('setting')).toEqual([]);
    expect(context.getDatabase('setting', { keepHeadguard: true, keepIndex: true })).toEqual([
      guard('setting', 4),
    ]);
    expect(() => context.removeFromDatabase('setting', (row) => row.cellular === false)).toThrow(
      DatabaseError,
    );
  });

  it('update_database: the log in place, a world database into a new snapshot with its headguard', () => {
    const context = populated();
    const last = context.getDatabase('sandbox');
    context.updateDatabase('sandbox', [{ ...last.at(-1)!, content: 'Hey' }]);
    expect(context.getDatabase('sandbox', { keepIndex: true })).toEqual([
      message(3, 'user', 'agent', 'Hey'),
    ]);
    const settings = context.getDatabase('setting');
    context.updateDatabase('setting', [{ ...settings[0]!, wifi: true }]);
    expect(context.getDatabase('setting', { keepHeadguard: true, keepIndex: true })).toEqual([
      guard('setting', 4),
      setting(4, false, true),
    ]);
    expect(context.getDatabase('setting', { index: 3, keepIndex: true })).toEqual([
      setting(3, false),
    ]);
  });

  it('copies are independent (a scenario is played on a copy of its starting context)', () => {
    const context = populated();
    const copy = context.clone();
    copy.addToDatabase('sandbox', [{ sender: 'agent', recipient: 'user', content: 'x' }]);
    expect(context.maxSandboxMessageIndex).toBe(3);
    expect(copy.maxSandboxMessageIndex).toBe(4);
  });
});
