/** Test fixtures of construction: a small source record with executed returns, and cases parsed from records. */
import { FileResolver } from '../dataset/files.js';
import type { Case } from '../dataset/case.js';
import { parseRecordLine } from '../dataset/parse-record.js';
import type { SourceMessage, SourceRecord, SourceTool } from './source-record.js';

const object = (
  properties: Record<string, string>,
  required: string[] = Object.keys(properties),
) => ({
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(properties).map(([name, type]) => [name, { type }]),
  ),
  required,
});

/** The tools of the fixture shop. */
export const SHOP_TOOLS: SourceTool[] = [
  {
    name: 'find_user_by_email',
    description: 'Find a user id by email address. Returns the id.',
    parameters: object({ email: 'string' }),
  },
  {
    name: 'get_order_details',
    description: 'Get the status and items of an order.',
    parameters: object({ order_id: 'string' }),
  },
  {
    name: 'get_product_details',
    description: 'Get the variants of a product.',
    parameters: object({ product_id: 'string' }),
  },
  {
    name: 'cancel_pending_order',
    description: 'Cancel a pending order.',
    parameters: object({ order_id: 'string', reason: 'string' }),
  },
  {
    name: 'list_store_hours',
    description: 'List the opening hours of the stores.',
    parameters: object({}),
  },
];

/** One executed call: the assistant message and its tool return. */
export function executed(
  id: string,
  name: string,
  args: Record<string, unknown>,
  content: string,
  error = false,
  thought = '',
): SourceMessage[] {
  return [
    { role: 'assistant', content: thought, tool_calls: [{ id, name, arguments: args }] },
    { role: 'tool', tool_call_id: id, name, content, error },
  ];
}

/**
 * A four-step shop trajectory: lookup, order, product, cancel (the second lookup fails first when
 * `withFailure`; `reuse` looks up a second order and its product before the cancel, so two tools
 * are used again after working once — what `broken` needs).
 */
export function shopRecord(
  id = 'shop-1',
  options: { withFailure?: boolean; reuse?: boolean } = {},
): SourceRecord {
  const messages: SourceMessage[] = [
    ...executed(
      'c1',
      'find_user_by_email',
      { email: 'ana@example.com' },
      'ana_17',
      false,
      'Authenticate the customer first.',
    ),
    ...(options.withFailure
      ? executed('c1b', 'get_order_details', { order_id: '#W9' }, 'Error: order not found', true)
      : []),
    ...executed(
      'c2',
      'get_order_details',
      { order_id: '#W1' },
      '{"order_id": "#W1", "status": "pending", "items": [{"product_id": "P-77"}]}',
    ),
    ...executed(
      'c3',
      'get_product_details',
      { product_id: 'P-77' },
      '{"product_id": "P-77", "name": "Lamp"}',
    ),
    ...(options.reuse
      ? [
          ...executed(
            'c3b',
            'get_order_details',
            { order_id: '#W2' },
            '{"order_id": "#W2", "status": "delivered", "items": [{"product_id": "P-78"}]}',
          ),
          ...executed('c3c', 'get_product_details', { product_id: 'P-78' }, '{"name": "Rug"}'),
        ]
      : []),
    ...executed(
      'c4',
      'cancel_pending_order',
      { order_id: '#W1', reason: 'no longer needed' },
      '{"order_id": "#W1", "status": "cancelled"}',
    ),
  ];
  return {
    id,
    source: 'fixture',
    source_subset: 'shop',
    task_family: 'customer_service',
    task_category: 'shop',
    query:
      'I am ana@example.com. Please cancel my pending order #W1 with the lamp, I no longer need it.',
    system_prompt: 'You are the shop assistant. Authenticate the customer before any change.',
    tools: SHOP_TOOLS.map((tool) => ({ ...tool })),
    messages,
    files: [],
    tool_returns: 'executed',
  };
}

/** A case parsed from a record (files resolved against `root`). */
export function caseOf(record: Record<string, unknown>, root = '/nonexistent-apb-root'): Case {
  const parsed = parseRecordLine(
    JSON.stringify(record),
    { file: 'fixture.jsonl', line: 1, fileSplit: null },
    new FileResolver(root),
  );
  if (!parsed.ok)
    throw new Error(parsed.issues.map((issue) => `${issue.field}: ${issue.message}`).join('; '));
  return parsed.case;
}
