/**
 * A scripted model behind the loopback fake that plays every role of an exec run, told apart by what each request
 * carries: the user simulator (its guidelines), the planner (APB's holistic prompt; a revision when it holds its
 * own earlier answer), the critic (anything else without tools) and the agent (requests with tools). The agent
 * cancels the right order only when its system text holds a plan, so direct, plan-first and refine differ.
 */
import { replies, type FakeReply, type RecordedRequest } from '../fake-server/index.js';

export const PLANNER_MARK = 'You are the planner of a tool-using AI agent';
export const USER_MARK = 'You are playing a customer';

export type Role = 'agent' | 'user' | 'draft' | 'revision' | 'critique';

/** Which role a request at the fake was made for. */
export function roleOf(request: RecordedRequest): Role {
  const parsed = request.parsed!;
  if (parsed.tools.length > 0) return 'agent';
  const system = parsed.messages[0]?.text ?? '';
  if (system.startsWith(USER_MARK)) return 'user';
  if (system.includes(PLANNER_MARK))
    return parsed.messages.some((message) => message.role === 'assistant') ? 'revision' : 'draft';
  return 'critique';
}

const orderIn = (text: string) => /#W\d+/.exec(text)?.[0] ?? '#W?';

/** The draft: cancel only (no lookup). The revision: lookup, then cancel. */
export function draftPlan(orderId: string) {
  return {
    plan: 'DRAFT: 1. Cancel the order.',
    tool_chain: [
      {
        name: 'cancel_pending_order',
        parameter_description: { order_id: orderId, reason: 'no longer needed' },
        reason: 'the user asks',
      },
    ],
  };
}
export function revisedPlan(orderId: string) {
  return {
    plan: 'REVISED: 1. Look the order up. 2. Cancel it.',
    tool_chain: [
      {
        name: 'get_order_details',
        parameter_description: { order_id: orderId },
        reason: 'check it is pending',
      },
      {
        name: 'cancel_pending_order',
        parameter_description: { order_id: orderId, reason: 'no longer needed' },
        reason: 'the user asks',
      },
    ],
  };
}

/** The scripted answer to any request of an exec run. */
export function respondAsExecModels(request: RecordedRequest): FakeReply {
  const parsed = request.parsed!;
  const role = roleOf(request);
  if (role === 'user') {
    const own = parsed.messages.filter((message) => message.role === 'assistant');
    if (own.length === 0)
      return replies.text(`Hi, please cancel my order ${orderIn(parsed.messages[0]!.text)}.`);
    const agentSaid = parsed.messages.at(-1)?.text ?? '';
    return replies.text(agentSaid.includes('cancelled') ? '###STOP###' : 'Yes, please go ahead.');
  }
  if (role === 'draft')
    return replies.json(draftPlan(orderIn(parsed.text.split('## Request')[1] ?? '')));
  if (role === 'revision')
    return replies.json(revisedPlan(orderIn(parsed.text.split('## Request')[1] ?? '')));
  if (role === 'critique')
    return replies.text('The plan cancels without looking the order up first (E3).');
  const userText = parsed.messages.find((message) => message.role === 'user')?.text ?? '';
  const orderId = orderIn(userText);
  const results = parsed.messages.filter((message) => message.role === 'tool').length;
  const planned = parsed.messages[0]!.text.includes('<plan>');
  if (!planned) {
    if (results === 0)
      return replies.toolCalls({
        name: 'cancel_pending_order',
        arguments: { order_id: '#W9', reason: 'no longer needed' },
      });
    return replies.text('Your order is cancelled.');
  }
  if (results === 0)
    return replies.toolCalls({ name: 'get_order_details', arguments: { order_id: orderId } });
  if (results === 1)
    return replies.toolCalls({
      name: 'cancel_pending_order',
      arguments: { order_id: orderId, reason: 'no longer needed' },
    });
  return replies.text(`Your order ${orderId} is cancelled.`);
}
