/**
 * The tools a scenario's session can run. Ported so far: the nine setting tools and the user's
 * `end_conversation`; the five RapidAPI tools answer a fixed "service unavailable" error. The
 * contact, messaging, reminder and utility tools are not ported yet: a call to one answers
 * Python's NameError, as a call to an unknown function would.
 */
import type { Tool } from './toolbox.js';
import { END_CONVERSATION, RAPID_API_TOOL_NAMES, SETTING_TOOLS } from './tools-setting.js';

const rapidApi: Tool[] = RAPID_API_TOOL_NAMES.map((name) => ({
  name,
  visibleTo: ['agent'],
  // the service is never reached: no argument is checked before the fixed error
  parameters: [],
  run: () => null,
}));

/** Every ported tool by name. */
export const TOOLS: ReadonlyMap<string, Tool> = new Map(
  [...SETTING_TOOLS, END_CONVERSATION, ...rapidApi].map((tool) => [tool.name, tool]),
);
