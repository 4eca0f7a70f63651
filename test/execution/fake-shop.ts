/**
 * FakeShop: a small, named fake execution environment for tests of the loop and the exec run (not tau2): two orders,
 * a lookup, a cancel, a transfer; tool errors in tau2's `Error: …` form; and a fake evaluator whose reward is 1 when
 * the conversation ended on a stop and the task's order is cancelled (and 0 otherwise), with a database difference.
 */
import type { Evaluate, ExecEnvironment, ExecTaskView } from '../../src/execution/exec-run.js';
import type { ToolSession } from '../../src/execution/loop.js';

export const FAKE_SHOP_POLICY =
  'FakeShop policy: look an order up before changing it; only pending orders can be cancelled; confirm with the user first.';

export const FAKE_SHOP_TOOLS = [
  {
    name: 'get_order_details',
    description: 'Get the status of an order.',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' } },
      required: ['order_id'],
    },
  },
  {
    name: 'cancel_pending_order',
    description: 'Cancel a pending order.',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' }, reason: { type: 'string' } },
      required: ['order_id', 'reason'],
    },
  },
  {
    name: 'transfer_to_human_agents',
    description: 'Transfer the user to a human agent.',
    parameters: {
      type: 'object',
      properties: { summary: { type: 'string' } },
      required: ['summary'],
    },
  },
];

export interface FakeShopSession extends ToolSession {
  orders: Map<string, string>;
}

/** A session on a fresh copy of the two orders. */
export function openFakeShopSession(): FakeShopSession {
  const orders = new Map([
    ['#W1', 'pending'],
    ['#W2', 'pending'],
  ]);
  return {
    orders,
    callTool(name, args) {
      const id = String((args as { order_id?: unknown }).order_id ?? '');
      if (name === 'transfer_to_human_agents')
        return { content: 'Transfer successful', error: false };
      if (!FAKE_SHOP_TOOLS.some((tool) => tool.name === name))
        return { content: `Error: Tool '${name}' not found.`, error: true };
      if (!orders.has(id)) return { content: 'Error: Order not found', error: true };
      if (name === 'cancel_pending_order') {
        if (orders.get(id) !== 'pending')
          return { content: 'Error: Non-pending order cannot be cancelled', error: true };
        orders.set(id, 'cancelled');
      }
      return { content: JSON.stringify({ order_id: id, status: orders.get(id) }), error: false };
    },
  };
}

/** The fake environment. */
export const fakeShop: ExecEnvironment = {
  id: 'fake:shop',
  policy: FAKE_SHOP_POLICY,
  tools: FAKE_SHOP_TOOLS,
  openSession: openFakeShopSession,
};

/** A task: cancel `orderId`; the reference is lookup then cancel. `secret` goes into evaluator-only fields. */
export function fakeShopTask(
  id: string,
  orderId: string,
  secret = 'no secret',
): ExecTaskView & {
  criteria: {
    actions: Array<{ name: string; arguments: Record<string, unknown> }>;
    nlAssertions: string[];
    communicateInfo: string[];
  };
  purpose: string;
} {
  return {
    id,
    userScenario: {
      persona: null,
      instructions: `Reason for call: you want order ${orderId} cancelled because you no longer need it.`,
    },
    criteria: {
      actions: [
        { name: 'get_order_details', arguments: { order_id: orderId } },
        {
          name: 'cancel_pending_order',
          arguments: { order_id: orderId, reason: `no longer needed ${secret}` },
        },
      ],
      nlAssertions: [`The agent confirms the cancellation ${secret}`],
      communicateInfo: [secret],
    },
    purpose: `Cancel an order ${secret}`,
  };
}

/** The fake evaluator: 1 when a stop ended it and the order is cancelled; the DB difference names the order. */
export const fakeShopEvaluate: Evaluate = async ({ task, termination, session }) => {
  const orderId = String((task.criteria.actions?.[0]?.arguments as { order_id: string }).order_id);
  const status = (session as FakeShopSession).orders.get(orderId);
  if (termination === 'infrastructure_error')
    return {
      reward: null,
      reward_info: { db: null, communicate: null, action: null, nl_assertion: null },
      details: { note: 'infrastructure error' },
    };
  const stopped = termination === 'user_stop' || termination === 'agent_stop';
  const db = stopped && status === 'cancelled' ? 1 : 0;
  return {
    reward: db,
    reward_info: { db, communicate: null, action: null, nl_assertion: null },
    details: {
      db_differences:
        status === 'cancelled'
          ? []
          : [{ collection: 'orders', key: orderId, expected: 'cancelled', actual: status }],
    },
  };
};
