/**
 * ToolSandbox's setting tools (`tools/setting.py`): the phone's low battery mode, location
 * service, cellular and wifi switches, and its location. Low battery mode turns the others off
 * and keeps them from being turned on.
 */
import type { ExecutionContext } from './execution-context.js';
import { PyFloat } from './python-values.js';
import { ToolException, validateType, type Tool } from './toolbox.js';

const BOOLEAN_SETTINGS = ['cellular', 'wifi', 'location_service', 'low_battery_mode'];

/** A boolean setting (ToolSandbox's get_boolean_settings). */
export function getSetting(context: ExecutionContext, name: string): boolean {
  validateType(name, 'setting_name', 'str');
  if (!BOOLEAN_SETTINGS.includes(name))
    throw new ToolException('KeyError', `'${name} is not a boolean column'`);
  return context.getDatabase('setting')[0]![name] as boolean;
}

function setSetting(context: ExecutionContext, name: string, on: boolean): void {
  validateType(name, 'setting_name', 'str');
  validateType(on, 'on', 'bool');
  if (getSetting(context, name) === on)
    throw new ToolException('ValueError', `${name} already ${on ? 'enabled' : 'disabled'}`);
  const rows = context.getDatabase('setting').map((row) => ({ ...row, [name]: !row[name] }));
  context.updateDatabase('setting', rows);
}

const on = [{ name: 'on', required: true }];
const agent: Tool['visibleTo'] = ['agent'];

function guardedSwitch(name: string, column: string, label: string, checksType: boolean): Tool {
  return {
    name,
    visibleTo: agent,
    parameters: on,
    run(context, args) {
      if (checksType) validateType(args.on, 'on', 'bool');
      if (args.on && getSetting(context, 'low_battery_mode'))
        throw new ToolException(
          'PermissionError',
          `${label} cannot be turned on in low battery mode`,
        );
      setSetting(context, column, args.on as boolean);
      return null;
    },
  };
}

function getter(name: string, column: string): Tool {
  return { name, visibleTo: agent, parameters: [], run: (context) => getSetting(context, column) };
}

/** The nine setting tools. */
export const SETTING_TOOLS: Tool[] = [
  {
    name: 'set_low_battery_mode_status',
    visibleTo: agent,
    parameters: on,
    run(context, args) {
      validateType(args.on, 'on', 'bool');
      setSetting(context, 'low_battery_mode', args.on as boolean);
      if (args.on)
        for (const dependent of ['cellular', 'wifi', 'location_service']) {
          try {
            setSetting(context, dependent, false);
          } catch (error) {
            if (!(error instanceof ToolException && error.type === 'ValueError')) throw error;
          }
        }
      return null;
    },
  },
  getter('get_low_battery_mode_status', 'low_battery_mode'),
  // ToolSandbox checks the argument's type in every setter but this one (its own omission)
  guardedSwitch('set_location_service_status', 'location_service', 'Location service', false),
  getter('get_location_service_status', 'location_service'),
  guardedSwitch('set_cellular_service_status', 'cellular', 'Cellular service', true),
  getter('get_cellular_service_status', 'cellular'),
  guardedSwitch('set_wifi_status', 'wifi', 'Wifi', true),
  getter('get_wifi_status', 'wifi'),
  {
    name: 'get_current_location',
    visibleTo: agent,
    parameters: [],
    run(context) {
      if (!getSetting(context, 'location_service'))
        throw new ToolException('PermissionError', 'Location service is not enabled.');
      const row = context.getDatabase('setting')[0]!;
      return {
        latitude: new PyFloat(row.latitude as number),
        longitude: new PyFloat(row.longitude as number),
      };
    },
  },
];

/** The user's tool: ends the conversation (`tools/user_tools.py`). */
export const END_CONVERSATION: Tool = {
  name: 'end_conversation',
  visibleTo: ['user'],
  parameters: [],
  run(context) {
    const log = context.getDatabase('sandbox');
    if (!log.at(-1)!.conversation_active)
      throw new ToolException('ValueError', 'Conversation already ended');
    context.updateDatabase(
      'sandbox',
      log.map((row) => ({ ...row, conversation_active: !row.conversation_active })),
    );
    return null;
  },
};

/** The RapidAPI tools: listed, but their web service is unreachable here. */
export const RAPID_API_TOOL_NAMES = [
  'search_lat_lon',
  'search_location_around_lat_lon',
  'search_weather_around_lat_lon',
  'search_stock',
  'convert_currency',
];

/** The fixed answer of a RapidAPI tool (documented in docs/execution.md). */
export const SERVICE_UNAVAILABLE =
  'RapidAPI service unavailable: this tool needs a web service that apb does not reach';
