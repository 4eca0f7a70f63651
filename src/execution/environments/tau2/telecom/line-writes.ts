/**
 * The agent side's write tools (tau2's `TelecomTools`: suspend and resume a line, payment requests,
 * roaming, data refuelling, transfer to a human), step for step as tau2 does them, with its texts.
 */
import { z } from 'zod';
import { pyStr, pyTypeName, ToolError } from '../python.js';
import type { Tau2Tool, ToolResult } from '../toolkit.js';
import {
  billById,
  billsAwaitingPayment,
  customerById,
  floatText,
  planById,
  targetLine,
  TODAY,
} from './accounts.js';
import { Line, type BillRecord, type TelecomState } from './model.js';

/** `_apply_one_time_charge`: adds a line item to the customer's draft bill, opening one for next month if none. */
export function applyOneTimeCharge(
  state: TelecomState,
  customerId: unknown,
  amount: number,
  description: string,
): void {
  const db = state.agent;
  const customer = customerById(db, customerId);
  let draft = customer.bill_ids
    .map((billId) => billById(db, billId))
    .find((bill) => bill.status === 'Draft');
  if (!draft) {
    state.billCounter += 1;
    const billId = `B${state.billCounter.toString(16).padStart(8, '0')}`;
    // Next month's bill, from tau2's fixed today (2025-02-25): March 2025, due 14 days after issue.
    const bill: BillRecord = {
      bill_id: billId,
      customer_id: customerId as string,
      period_start: '2025-03-01',
      period_end: '2025-03-31',
      issue_date: '2025-03-01',
      total_due: 0,
      due_date: '2025-03-15',
      line_items: [],
      status: 'Draft',
    };
    db.bills.push(bill);
    customer.bill_ids.push(billId);
    draft = bill;
  }
  draft.line_items.push({
    description,
    amount,
    date: TODAY,
    item_type: amount < 0 ? 'Credit' : 'Charge',
  });
  draft.total_due += amount;
}

function suspendLine(state: TelecomState, args: Record<string, unknown>): ToolResult {
  const line = targetLine(state.agent, args.customer_id, args.line_id);
  if (line.status !== 'Active') throw new ToolError('Line must be active to suspend');
  line.status = 'Suspended';
  line.suspension_start_date = TODAY;
  return {
    value: {
      message: 'Line suspended successfully. $5/month holding fee will apply.',
      line,
    },
    schema: z.object({ message: z.string(), line: Line }),
  };
}

function resumeLine(state: TelecomState, args: Record<string, unknown>): ToolResult {
  const line = targetLine(state.agent, args.customer_id, args.line_id);
  if (line.status !== 'Suspended' && line.status !== 'Pending Activation')
    throw new ToolError('Line must be suspended to resume');
  line.status = 'Active';
  line.suspension_start_date = null;
  return {
    value: { message: 'Line resumed successfully', line },
    schema: z.object({ message: z.string(), line: Line }),
  };
}

function sendPaymentRequest(state: TelecomState, args: Record<string, unknown>): string {
  const db = state.agent;
  const customer = customerById(db, args.customer_id);
  if (billsAwaitingPayment(db, customer).length !== 0)
    throw new ToolError('A bill is already awaiting payment for this customer');
  if (!customer.bill_ids.includes(args.bill_id as string))
    throw new ToolError(
      `Bill ${pyStr(args.bill_id)} not found for customer ${pyStr(args.customer_id)}`,
    );
  const bill = billById(db, args.bill_id);
  bill.status = 'Awaiting Payment';
  return `Payment request sent to the customer for bill ${bill.bill_id}`;
}

function setRoaming(enabled: boolean) {
  return (state: TelecomState, args: Record<string, unknown>): string => {
    const line = targetLine(state.agent, args.customer_id, args.line_id);
    if (line.roaming_enabled === enabled)
      return `Roaming was already ${enabled ? 'enabled' : 'disabled'}`;
    line.roaming_enabled = enabled;
    return `Roaming ${enabled ? 'enabled' : 'disabled'} successfully`;
  };
}

function refuelData(state: TelecomState, args: Record<string, unknown>): ToolResult {
  const line = targetLine(state.agent, args.customer_id, args.line_id);
  const amount = args.gb_amount;
  if (typeof amount !== 'number' && typeof amount !== 'boolean')
    throw new ToolError(
      `'<=' not supported between instances of '${pyTypeName(amount)}' and 'int'`,
    );
  const gb = Number(amount);
  if (gb <= 0) throw new ToolError('Refuel amount must be positive');
  const plan = planById(state.agent, line.plan_id);
  const price = plan.data_refueling_price_per_gb;
  const charge = gb * price;
  line.data_refueling_gb += gb;
  // A JS number does not say whether the agent wrote 2 or 2.0: integral amounts print as `2` here (tau2: as sent).
  const amountText = pyStr(amount);
  applyOneTimeCharge(
    state,
    args.customer_id,
    charge,
    `Data refueling: ${amountText} GB at $${floatText(price)}/GB`,
  );
  return {
    value: {
      message: `Successfully added ${amountText} GB of data for line ${pyStr(args.line_id)} for $${charge.toFixed(2)}`,
      new_data_refueling_gb: floatText(line.data_refueling_gb),
      charge: floatText(charge),
    },
    schema: z.unknown(),
  };
}

const write = (
  params: string[],
  run: (state: TelecomState, args: Record<string, unknown>) => ToolResult,
): Tau2Tool<TelecomState> => ({ kind: 'write', params, run });

/** The agent's write tools (and `transfer_to_human_agents`, tau2's one generic tool here). */
export const TELECOM_WRITE_TOOLS: Record<string, Tau2Tool<TelecomState>> = {
  suspend_line: write(['customer_id', 'line_id', 'reason'], suspendLine),
  resume_line: write(['customer_id', 'line_id'], resumeLine),
  send_payment_request: write(['customer_id', 'bill_id'], sendPaymentRequest),
  enable_roaming: write(['customer_id', 'line_id'], setRoaming(true)),
  disable_roaming: write(['customer_id', 'line_id'], setRoaming(false)),
  refuel_data: write(['customer_id', 'line_id', 'gb_amount'], refuelData),
  transfer_to_human_agents: {
    kind: 'generic',
    params: ['summary'],
    run: () => 'Transfer successful',
  },
};
