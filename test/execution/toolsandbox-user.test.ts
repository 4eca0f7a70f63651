/**
 * ToolSandbox's user simulator in apb (its rules and few-shot examples in this project's words):
 * the task comes from the scenario's last system message to the user, the simulator sees only the
 * words exchanged (roles flipped), is offered `end_conversation`, and its call ends the
 * conversation. The frozen clock: parsing, the tools' "now", the timestamp shift.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CLOCK,
  nowOf,
  parseClock,
  setClock,
  shiftNodes,
  shiftRow,
} from '../../src/execution/environments/toolsandbox/clock.js';
import { ExecutionContext } from '../../src/execution/environments/toolsandbox/execution-context.js';
import {
  END_CONVERSATION_TOOL,
  toolSandboxUser,
  toolSandboxUserChat,
  userTaskOf,
} from '../../src/execution/environments/toolsandbox/user-simulator.js';
import type { Provider, ProviderRequest } from '../../src/providers/provider.js';

describe('ToolSandbox user simulator', () => {
  it("takes the task after ToolSandbox's fixed instruction text", () => {
    const prompt = 'You are no longer an assistant. ... want User B to complete: Turn off wifi';
    expect(userTaskOf(prompt)).toBe('Turn off wifi');
    expect(userTaskOf('Just this')).toBe('Just this');
  });

  it('sees only the words exchanged, roles flipped', () => {
    const chat = toolSandboxUserChat('SYSTEM', [
      { role: 'user', content: 'Turn off wifi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', name: 'x', arguments: {} }] },
      { role: 'tool', tool_call_id: 'c', name: 'x', content: 'None', error: false },
      { role: 'assistant', content: 'Done.' },
    ]);
    expect(chat.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
  });

  it('is offered end_conversation and returns its call', async () => {
    const seen: ProviderRequest[] = [];
    const provider = {
      id: 'stub:user',
      async generate(request: ProviderRequest) {
        seen.push(request);
        return {
          text: '',
          toolCalls: [{ id: 't', name: 'end_conversation', arguments: {} }],
          usage: null,
          cached: false,
        };
      },
    } as unknown as Provider;
    const user = toolSandboxUser({ provider, task: 'Turn off wifi', sampling: {}, repeat: 0 });
    const turn = await user([{ role: 'assistant', content: 'Wifi is off.' }]);
    expect(turn.toolCalls.map((c) => c.name)).toEqual(['end_conversation']);
    expect(seen[0]!.tools).toEqual([END_CONVERSATION_TOOL]);
    expect(JSON.stringify(seen[0]!.messages)).toContain('Turn off wifi');
    expect(seen[0]!.role).toBe('user');
  });
});

describe('ToolSandbox frozen clock', () => {
  it('reads the default instant unless set, and refuses an instant without a zone', () => {
    const context = new ExecutionContext();
    expect(nowOf(context)).toBe(Date.parse('2024-09-02T12:00:00Z') / 1000);
    expect(parseClock(DEFAULT_CLOCK)).toBe(1725278400);
    setClock(context, 1_800_000_000);
    expect(nowOf(context)).toBe(1_800_000_000);
    expect(() => parseClock('2024-09-02 12:00')).toThrow(/--clock must be/);
  });

  it('moves timestamps of rows and tool-trace instants, never placeholder bounds', () => {
    expect(shiftRow({ creation_timestamp: 1725278400, content: 'x' }, 60)).toEqual({
      creation_timestamp: 1725278460,
      content: 'x',
    });
    const trace =
      '{"tool_name": "add_reminder", "arguments": {"reminder_timestamp": 1725278400, "x": 0}}';
    const bound =
      '[{"tool_name": "search_reminder", "arguments": {"creation_timestamp_lowerbound": 0}}]';
    const [node] = shiftNodes(
      [
        {
          snapshot_constraints: [
            {
              target_dataframe: {
                columns: ['tool_trace'],
                rows: [{ tool_trace: trace }, { tool_trace: bound }],
              },
            },
          ],
        },
      ],
      60,
    );
    const rows = node!.snapshot_constraints[0]!.target_dataframe.rows;
    expect(JSON.parse(rows[0]!.tool_trace).arguments.reminder_timestamp).toBe(1725278460);
    expect(JSON.parse(rows[1]!.tool_trace)[0].arguments.creation_timestamp_lowerbound).toBe(0);
  });
});
