/**
 * The agent side's lookups (tau2's `TelecomTools` helpers and read tools) with tau2's error texts:
 * customers by phone, id or name, lines, plans, bills and devices by id, a customer's bills and a
 * line's data usage. Every record is found by a linear scan of its list, as tau2 does.
 */
import { z } from 'zod';
import { pyFloatRepr, pyStr, pyTypeName, ToolError } from '../python.js';
import type { Tau2Tool, ToolResult } from '../toolkit.js';
import {
  Bill,
  Customer,
  Device,
  Line,
  Plan,
  type BillRecord,
  type CustomerRecord,
  type LineRecord,
  type PlanRecord,
  type TelecomDb,
  type TelecomState,
} from './model.js';

/** tau2's fixed "today" of the telecom domain (`utils.get_today`). */
export const TODAY = '2025-02-25';

function byField<T extends Record<string, unknown>>(
  records: T[],
  field: keyof T,
  value: unknown,
): T | undefined {
  return records.find((record) => record[field] === value);
}

/** `_get_line_by_id`. */
export function lineById(db: TelecomDb, lineId: unknown): LineRecord {
  const line = byField(db.lines, 'line_id', lineId);
  if (!line) throw new ToolError(`Line with ID ${pyStr(lineId)} not found`);
  return line;
}

/** `_get_line_by_phone`. */
export function lineByPhone(db: TelecomDb, phone: unknown): LineRecord {
  const line = byField(db.lines, 'phone_number', phone);
  if (!line) throw new ToolError(`Line with phone number ${pyStr(phone)} not found`);
  return line;
}

/** `_get_plan_by_id`. */
export function planById(db: TelecomDb, planId: unknown): PlanRecord {
  const plan = byField(db.plans, 'plan_id', planId);
  if (!plan) throw new ToolError(`Plan with ID ${pyStr(planId)} not found`);
  return plan;
}

/** `_get_bill_by_id`. */
export function billById(db: TelecomDb, billId: unknown): BillRecord {
  const bill = byField(db.bills, 'bill_id', billId);
  if (!bill) throw new ToolError(`Bill with ID ${pyStr(billId)} not found`);
  return bill;
}

/** `get_customer_by_id`. */
export function customerById(db: TelecomDb, customerId: unknown): CustomerRecord {
  const customer = byField(db.customers, 'customer_id', customerId);
  if (!customer) throw new ToolError(`Customer with ID ${pyStr(customerId)} not found`);
  return customer;
}

/** `get_customer_by_phone`: the primary number first, then the customer's lines, customer by customer. */
export function customerByPhone(db: TelecomDb, phone: unknown): CustomerRecord {
  for (const customer of db.customers) {
    if (customer.phone_number === phone) return customer;
    for (const lineId of customer.line_ids)
      if (lineById(db, lineId).phone_number === phone) return customer;
  }
  throw new ToolError(`Customer with phone number ${pyStr(phone)} not found`);
}

/** `_get_target_line`: the customer's own line, or an error naming both ids. */
export function targetLine(db: TelecomDb, customerId: unknown, lineId: unknown): LineRecord {
  const customer = customerById(db, customerId);
  if (!customer.line_ids.includes(lineId as string))
    throw new ToolError(`Line ${pyStr(lineId)} not found for customer ${pyStr(customerId)}`);
  return lineById(db, lineId);
}

/** `_get_bills_awaiting_payment`. */
export function billsAwaitingPayment(db: TelecomDb, customer: CustomerRecord): BillRecord[] {
  return customer.bill_ids
    .map((billId) => billById(db, billId))
    .filter((bill) => bill.status === 'Awaiting Payment');
}

const model = (value: unknown, schema: z.core.$ZodType): ToolResult => ({ value, schema });

/** `str.startswith` on a value that must be a string (anything else is Python's AttributeError). */
function startsWith(value: unknown, prefix: string): boolean {
  if (typeof value !== 'string')
    throw new ToolError(`'${pyTypeName(value)}' object has no attribute 'startswith'`);
  return value.startsWith(prefix);
}

function detailsById(db: TelecomDb, id: unknown): ToolResult {
  if (startsWith(id, 'L')) return model(lineById(db, id), Line);
  if (startsWith(id, 'D')) {
    const device = byField(db.devices, 'device_id', id);
    if (!device) throw new ToolError(`Device with ID ${pyStr(id)} not found`);
    return model(device, Device);
  }
  if (startsWith(id, 'B')) return model(billById(db, id), Bill);
  if (startsWith(id, 'C')) return model(customerById(db, id), Customer);
  if (startsWith(id, 'P')) return model(planById(db, id), Plan);
  throw new ToolError(`Unknown ID format or type: ${pyStr(id)}`);
}

/** Python's `str(x)` of a number a tool returns inside a dict (tau2's `to_json_str` turns it into text). */
export const floatText = (value: number): string => pyFloatRepr(value);

function dataUsage(db: TelecomDb, args: Record<string, unknown>): ToolResult {
  const line = targetLine(db, args.customer_id, args.line_id);
  const plan = planById(db, line.plan_id);
  return {
    value: {
      line_id: args.line_id,
      data_used_gb: floatText(line.data_used_gb),
      data_limit_gb: floatText(plan.data_limit_gb),
      data_refueling_gb: floatText(line.data_refueling_gb),
      // The last day of today's month (tau2 computes it from get_today()).
      cycle_end_date: '2025-02-28',
    },
    schema: z.object({ line_id: z.unknown() }),
  };
}

function billsForCustomer(db: TelecomDb, args: Record<string, unknown>): ToolResult {
  const customer = customerById(db, args.customer_id);
  const bills = customer.bill_ids.map((billId) => billById(db, billId));
  // sorted(..., key=issue_date, reverse=True) is stable: equal dates keep their order.
  const sorted = bills
    .map((bill, index) => ({ bill, index }))
    .sort((a, b) =>
      a.bill.issue_date === b.bill.issue_date
        ? a.index - b.index
        : a.bill.issue_date < b.bill.issue_date
          ? 1
          : -1,
    )
    .map(({ bill }) => bill);
  const limit = args.limit === undefined ? 12 : args.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit))
    throw new ToolError('slice indices must be integers or None or have an __index__ method');
  return model(limit >= 0 ? sorted.slice(0, limit) : sorted.slice(0, limit), z.array(Bill));
}

const read = (
  params: string[],
  run: (db: TelecomDb, args: Record<string, unknown>) => ToolResult,
  optional: string[] = [],
): Tau2Tool<TelecomState> => ({
  kind: 'read',
  params,
  optional,
  run: (state, args) => run(state.agent, args),
});

/** The agent's read tools. */
export const TELECOM_READ_TOOLS: Record<string, Tau2Tool<TelecomState>> = {
  get_customer_by_phone: read(['phone_number'], (db, args) =>
    model(customerByPhone(db, args.phone_number), Customer),
  ),
  get_customer_by_id: read(['customer_id'], (db, args) =>
    model(customerById(db, args.customer_id), Customer),
  ),
  get_customer_by_name: read(['full_name', 'dob'], (db, args) => {
    if (typeof args.full_name !== 'string')
      throw new ToolError(`'${pyTypeName(args.full_name)}' object has no attribute 'lower'`);
    const name = args.full_name.toLowerCase();
    const found = db.customers.filter(
      (customer) =>
        customer.full_name.toLowerCase() === name && customer.date_of_birth === args.dob,
    );
    return model(found, z.array(Customer));
  }),
  get_details_by_id: read(['id'], (db, args) => detailsById(db, args.id)),
  get_bills_for_customer: read(['customer_id', 'limit'], billsForCustomer, ['limit']),
  get_data_usage: read(['customer_id', 'line_id'], dataUsage),
};
