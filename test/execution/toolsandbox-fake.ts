/**
 * A scripted fake for ToolSandbox exec runs behind the loopback server: the user simulator
 * (told apart by its rules' first words) ends the conversation once the agent has answered; the
 * planner, reviser and critic answer as scripted-model.ts's do; the agent switches the phone
 * setting the user's first words name (when its tools have the switch; with the refined plan
 * also a switch found by its description), then reports it done.
 * It sees only what a request carries: no scenario's milestones.
 */
import { replies, type FakeReply, type RecordedRequest } from '../fake-server/index.js';
import { roleOf } from './scripted-model.js';

export const TOOLSANDBOX_USER_MARK = 'Role-play from now on';

const SWITCHES: Array<[RegExp, string]> = [
  [/low battery/i, 'set_low_battery_mode_status'],
  [/wi-?fi/i, 'set_wifi_status'],
  [/cellular/i, 'set_cellular_service_status'],
  [/location service/i, 'set_location_service_status'],
];

function agentReply(request: RecordedRequest): FakeReply {
  const parsed = request.parsed!;
  const asked = parsed.messages.find((message) => message.role === 'user')?.text ?? '';
  const results = parsed.messages.filter((message) => message.role === 'tool').length;
  const wanted = SWITCHES.find(([pattern]) => pattern.test(asked));
  // With the refined plan the agent also finds the switch by its description
  // (the tool-name-scrambled variants).
  const refined = (parsed.messages[0]?.text ?? '').includes('REVISED');
  const tool = wanted
    ? parsed.tools.find(
        (t) =>
          t.name === wanted[1] ||
          (refined && /enable|disable/i.test(t.description) && wanted[0].test(t.description)),
      )
    : undefined;
  if (tool && results === 0)
    return replies.toolCalls({
      id: 'fake_call',
      name: tool.name,
      arguments: { on: !/\boff\b/i.test(asked) },
    });
  return replies.text(results > 0 ? 'Done: the setting is changed.' : 'Sorry, I cannot do that.');
}

/** The scripted answer to any request of a ToolSandbox exec run. */
export function respondAsToolSandboxModels(request: RecordedRequest): FakeReply {
  const parsed = request.parsed!;
  if ((parsed.messages[0]?.text ?? '').startsWith(TOOLSANDBOX_USER_MARK))
    return replies.toolCalls({ id: 'fake_end', name: 'end_conversation', arguments: {} });
  const role = roleOf(request);
  if (role === 'draft') return replies.json({ plan: 'DRAFT: answer the user.', tool_chain: [] });
  if (role === 'revision')
    return replies.json({ plan: 'REVISED: do what the user asks.', tool_chain: [] });
  if (role === 'critique') return replies.text('The draft calls no tool (E2).');
  return agentReply(request);
}
