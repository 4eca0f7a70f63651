/**
 * The telecom domain's two data models as zod schemas: the agent side's database (tau2's
 * `telecom/data_model.py`: plans, customers, lines, bills, devices, each a list) and the user's
 * phone with its surroundings (`telecom/user_data_model.py`). Field order and `float` vs `int` are
 * tau2's, so that a dumped model prints as tau2's `json.dumps(model_dump(), default=str)` does;
 * dates are kept as the strings that dump prints (`2025-02-25`, `2025-01-15 10:30:00`).
 */
import { z } from 'zod';

const text = z.string();
const float = z.number();
const date = z.string();
const optionalDate = date.nullable().default(null);

export const LINE_STATUSES = ['Active', 'Suspended', 'Pending Activation', 'Closed'] as const;
export const BILL_STATUSES = [
  'Draft',
  'Issued',
  'Awaiting Payment',
  'Paid',
  'Overdue',
  'Disputed',
] as const;

export const Plan = z.object({
  plan_id: text,
  name: text,
  data_limit_gb: float,
  price_per_month: float,
  data_refueling_price_per_gb: float,
});
export const Device = z.object({
  device_id: text,
  device_type: z.enum(['phone', 'router', 'tablet', 'watch', 'other']),
  model: text,
  imei: text.nullable().default(null),
  is_esim_capable: z.boolean(),
  activated: z.boolean().default(false),
  activation_date: optionalDate,
  last_esim_transfer_date: optionalDate,
});
export const Line = z.object({
  line_id: text,
  phone_number: text,
  status: z.enum(LINE_STATUSES).default('Pending Activation'),
  plan_id: text,
  device_id: text.nullable().default(null),
  data_used_gb: float.default(0),
  data_refueling_gb: float.default(0),
  roaming_enabled: z.boolean().default(false),
  contract_end_date: optionalDate,
  last_plan_change_date: optionalDate,
  last_sim_replacement_date: optionalDate,
  suspension_start_date: optionalDate,
});
export const LineItem = z.object({ description: text, amount: float, date, item_type: text });
export const Bill = z.object({
  bill_id: text,
  customer_id: text,
  period_start: date,
  period_end: date,
  issue_date: date,
  total_due: float,
  due_date: date,
  line_items: z.array(LineItem).default([]),
  status: z.enum(BILL_STATUSES).default('Draft'),
});
export const Customer = z.object({
  customer_id: text,
  full_name: text,
  date_of_birth: text,
  email: text,
  phone_number: text,
  address: z.object({ street: text, city: text, state: text, zip_code: text }),
  account_status: z.enum(['Active', 'Suspended', 'Pending Verification', 'Closed']),
  payment_methods: z.array(
    z.object({
      method_type: z.enum(['Credit Card', 'Debit Card', 'PayPal']),
      account_number_last_4: text,
      expiration_date: text,
    }),
  ),
  line_ids: z.array(text),
  bill_ids: z.array(text),
  created_at: date,
  last_extension_date: optionalDate,
  goodwill_credit_used_this_year: float.default(0),
});

/** The agent side's database (db.json, converted from tau2's db.toml). */
export const TelecomDb = z.object({
  plans: z.array(Plan),
  customers: z.array(Customer),
  lines: z.array(Line),
  bills: z.array(Bill),
  devices: z.array(Device),
});
export type TelecomDb = z.infer<typeof TelecomDb>;
export type LineRecord = z.infer<typeof Line>;
export type BillRecord = z.infer<typeof Bill>;
export type CustomerRecord = z.infer<typeof Customer>;
export type PlanRecord = z.infer<typeof Plan>;

export const SIGNALS = ['none', 'poor', 'fair', 'good', 'excellent'] as const;
export const TECHNOLOGIES = ['none', '2G', '3G', '4G', '5G'] as const;
export const NETWORK_MODES = ['4g_5g_preferred', '4g_only', '3g_only', '2g_only'] as const;
const Signal = z.enum(SIGNALS);
const Technology = z.enum(TECHNOLOGIES);
const Performance = z.enum(['unknown', 'poor', 'fair', 'good', 'excellent']);

export const ApnSettings = z.object({
  apn_name: z.enum(['internet', 'broken']).default('internet'),
  reset_at_reboot: z.boolean().default(false),
  mms_apn: text.nullable().default('mms'),
  mmsc_url: text.nullable().default('http://mms.carrier.com/mms/wapenc'),
  mms_proxy: text.nullable().default(null),
  mms_port: z.int().nullable().default(null),
});
export const VpnDetails = z.object({
  server_address: text.nullable().default(null),
  protocol: text.nullable().default(null),
  server_performance: Performance.default('unknown'),
});
const Permissions = z.object({
  sms: z.boolean(),
  storage: z.boolean(),
  phone: z.boolean(),
  network: z.boolean(),
});
export const PhoneDevice = z.object({
  sim_card_status: z.enum(['active', 'missing', 'locked_pin', 'locked_puk']),
  sim_card_missing: z.boolean(),
  airplane_mode: z.boolean(),
  network_signal_strength: Signal,
  network_technology_connected: Technology,
  network_connection_status: z.enum(['connected', 'searching', 'no_service', 'emergency_only']),
  battery_level: z.int(),
  data_enabled: z.boolean(),
  roaming_enabled: z.boolean(),
  network_mode_preference: z.enum(NETWORK_MODES),
  active_apn_settings: ApnSettings,
  wifi_enabled: z.boolean(),
  wifi_connected: z.boolean(),
  wifi_ssid: text.nullable(),
  wifi_signal_strength: Signal,
  wifi_calling_enabled: z.boolean(),
  wifi_calling_mms_over_wifi: z.boolean(),
  data_saver_mode: z.boolean(),
  vpn_enabled_setting: z.boolean(),
  vpn_connected: z.boolean(),
  vpn_details: VpnDetails.nullable(),
  app_statuses: z.record(text, z.object({ app_name: text, permissions: Permissions })),
});
export const PaymentRequest = z.object({ bill_id: text, amount_due: float, paid: z.boolean() });
export const Surroundings = z.object({
  name: text.nullable(),
  phone_number: text.nullable(),
  is_abroad: z.boolean(),
  roaming_allowed: z.boolean(),
  signal_strength: z.record(text, Signal),
  mobile_data_usage_exceeded: z.boolean(),
  line_active: z.boolean(),
  payment_request: PaymentRequest.nullable(),
});

/** The user's side (user_db.json, converted from tau2's user_db.toml): the phone and where the user is. */
export const TelecomUserDb = z.object({ device: PhoneDevice, surroundings: Surroundings });
export type TelecomUserDb = z.infer<typeof TelecomUserDb>;
export type PhoneState = z.infer<typeof PhoneDevice>;

/** Both sides of a telecom session: what the agent's tools and the user's tools change. */
export interface TelecomState {
  agent: TelecomDb;
  user: TelecomUserDb;
  /** tau2 names a new draft bill `B` + 8 random hex digits; apb counts instead (deterministic; see docs/execution.md). */
  billCounter: number;
}
