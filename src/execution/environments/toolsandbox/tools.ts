/**
 * The tools a scenario's session can run: ToolSandbox's 33 agent tools (contact 4, messaging 2,
 * reminder 4, setting 9, utility 9, RapidAPI 5) and the user's `end_conversation`. The five
 * RapidAPI tools answer a fixed "service unavailable" error (their web service is not reached).
 */
import type { Tool } from './toolbox.js';
import { CONTACT_TOOLS } from './tools-contact.js';
import { MESSAGING_TOOLS } from './tools-messaging.js';
import { REMINDER_TOOLS } from './tools-reminder.js';
import { END_CONVERSATION, RAPID_API_TOOL_NAMES, SETTING_TOOLS } from './tools-setting.js';
import { UTILITY_TOOLS } from './tools-utility.js';

const rapidApi: Tool[] = RAPID_API_TOOL_NAMES.map((name) => ({
  name,
  visibleTo: ['agent'],
  // the service is never reached: no argument is checked before the fixed error
  parameters: [],
  run: () => null,
}));

/** Every tool by name. */
export const TOOLS: ReadonlyMap<string, Tool> = new Map(
  [
    ...CONTACT_TOOLS,
    ...MESSAGING_TOOLS,
    ...REMINDER_TOOLS,
    ...SETTING_TOOLS,
    ...UTILITY_TOOLS,
    END_CONVERSATION,
    ...rapidApi,
  ].map((tool) => [tool.name, tool]),
);

/**
 * The tools under the names the agent was offered (`AgentTools.names`: agent-facing ->
 * execution-facing, scrambled in the tool-name variants), plus the user's tools: a call under a
 * scrambled name runs the real tool, as ToolSandbox's `get_execution_facing_tool_name` maps it
 * back. Argument names are never scrambled upstream, so they pass through unchanged.
 */
export function toolsForAgent(
  tools: ReadonlyMap<string, Tool>,
  names: Record<string, string>,
): Map<string, Tool> {
  const out = new Map<string, Tool>();
  for (const [agentFacing, actual] of Object.entries(names)) {
    const tool = tools.get(actual);
    if (tool) out.set(agentFacing, tool);
  }
  for (const [name, tool] of tools) if (tool.visibleTo.includes('user')) out.set(name, tool);
  return out;
}
