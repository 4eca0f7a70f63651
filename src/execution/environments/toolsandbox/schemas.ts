/**
 * ToolSandbox's five databases and their columns (`ExecutionContext.dbs_schemas`): the message
 * log (`sandbox`) and the four world databases the tools read and write.
 */
import type { ColumnType } from './frame.js';

/** A database of the execution context (ToolSandbox's DatabaseNamespace). */
export const NAMESPACES = ['sandbox', 'setting', 'contact', 'messaging', 'reminder'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** A participant of the conversation (ToolSandbox's RoleType). */
export const ROLES = ['system', 'user', 'agent', 'execution_environment'] as const;
export type Role = (typeof ROLES)[number];

/** The column links every row to the message whose handling produced its snapshot. */
export const INDEX_COLUMN = 'sandbox_message_index';

/** Each database's columns in order, with their dtypes. */
export const SCHEMAS: Record<Namespace, Record<string, ColumnType>> = {
  sandbox: {
    sandbox_message_index: 'int',
    sender: 'enum',
    recipient: 'enum',
    content: 'string',
    openai_tool_call_id: 'string',
    openai_function_name: 'string',
    conversation_active: 'bool',
    tool_call_exception: 'string',
    tool_trace: 'list',
    visible_to: 'list',
  },
  setting: {
    sandbox_message_index: 'int',
    device_id: 'string',
    cellular: 'bool',
    wifi: 'bool',
    location_service: 'bool',
    low_battery_mode: 'bool',
    latitude: 'float',
    longitude: 'float',
  },
  contact: {
    sandbox_message_index: 'int',
    person_id: 'string',
    name: 'string',
    phone_number: 'string',
    relationship: 'string',
    is_self: 'bool',
  },
  messaging: {
    sandbox_message_index: 'int',
    message_id: 'string',
    sender_person_id: 'string',
    sender_phone_number: 'string',
    recipient_person_id: 'string',
    recipient_phone_number: 'string',
    content: 'string',
    creation_timestamp: 'float',
  },
  reminder: {
    sandbox_message_index: 'int',
    reminder_id: 'string',
    content: 'string',
    creation_timestamp: 'float',
    reminder_timestamp: 'float',
    latitude: 'float',
    longitude: 'float',
  },
};

/** The columns of a database, `sandbox_message_index` first. */
export function columnsOf(namespace: Namespace): string[] {
  return Object.keys(SCHEMAS[namespace]);
}

/** The phone's settings before any scenario changes them (ToolSandbox's ExecutionContext init). */
export const DEFAULT_SETTINGS = {
  // uuid5(NAMESPACE_URL, "my_phone"), as ToolSandbox derives it
  device_id: '04640c30-ec89-5a3c-9fb4-4af3101c8e04',
  cellular: true,
  wifi: true,
  location_service: true,
  low_battery_mode: false,
  latitude: 37.334606,
  longitude: -122.009102,
} as const;
