/**
 * How a telecom task sets its scene and checks its outcome: the functions tau2's
 * `initialization_actions` and `env_assertions` call on either side (`env_type` user or
 * assistant: any tool, plus the set-up helpers that break the phone or the account, plus the
 * `assert_*` checks), and `sync_tools`, which carries the account's state to the phone (line
 * active, roaming allowed, data used up, a payment request) after every call.
 */
import { pyStr, ToolError } from '../python.js';
import { bindArguments, type Tau2Tool } from '../toolkit.js';
import {
  billById,
  billsAwaitingPayment,
  customerById,
  customerByPhone,
  lineById,
  lineByPhone,
  planById,
  targetLine,
  TODAY,
} from './accounts.js';
import { TELECOM_READ_TOOLS } from './accounts.js';
import { TELECOM_WRITE_TOOLS } from './line-writes.js';
import type { TelecomState } from './model.js';
import {
  canSendMms,
  connectVpn,
  mobileDataWorking,
  simulateNetworkSearch,
  speedTest,
  toggleAirplaneMode,
  toggleData,
  toggleDataSaver,
  toggleRoaming,
  toggleWifiCalling,
} from './phone.js';
import { TELECOM_USER_TOOLS } from './user-tools.js';

type Args = Record<string, unknown>;
type EnvFunction = {
  params: string[];
  optional?: string[];
  run(state: TelecomState, args: Args): unknown;
};
const fn = (params: string[], run: EnvFunction['run'], optional: string[] = []): EnvFunction => ({
  params,
  optional,
  run,
});
/** Calls `toggle` until the switch is `on` (tau2's turn_*_on/off: toggle, and toggle back if it went the wrong way). */
const turn = (toggle: (phone: TelecomState['user']) => boolean, on: boolean) =>
  fn([], (state) => {
    if (toggle(state.user) !== on) toggle(state.user);
  });

function suspendForOverdueBill(state: TelecomState, args: Args): string {
  const db = state.agent;
  const line = lineById(db, args.line_id);
  if (line.status !== 'Active')
    throw new ToolError('Line must be active to suspend for unpaid bill');
  const plan = planById(db, line.plan_id);
  const amount = plan.price_per_month;
  if (amount <= 0) throw new ToolError('Amount must be positive for overdue bill');
  const customer = customerById(db, args.customer_id);
  if (customer.bill_ids.some((billId) => billById(db, billId).status === 'Overdue'))
    throw new ToolError('Customer already has an overdue bill');
  // Last month's bill from tau2's fixed today (2025-02-25): January 2025, due on the 15th.
  db.bills.push({
    bill_id: args.new_bill_id as string,
    customer_id: args.customer_id as string,
    period_start: '2025-01-01',
    period_end: '2025-01-31',
    issue_date: '2025-01-01',
    total_due: amount,
    due_date: '2025-01-15',
    line_items: [
      { description: `Charge for line ${line.line_id}`, amount, date: TODAY, item_type: 'Charge' },
    ],
    status: 'Overdue',
  });
  customer.bill_ids.push(args.new_bill_id as string);
  line.status = 'Suspended';
  line.suspension_start_date = TODAY;
  if (args.contract_ended) line.contract_end_date = '2025-01-31';
  return `Line ${pyStr(args.line_id)} suspended for unpaid bill ${pyStr(args.new_bill_id)}. Contract ended: ${pyStr(args.contract_ended)}`;
}

const asFunctions = (tools: Record<string, Tau2Tool<TelecomState>>) =>
  Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [
      name,
      fn([...tool.params], tool.run, [...(tool.optional ?? [])]),
    ]),
  );

/** Everything an env function call may name on the agent's side (`TelecomTools`). */
const ASSISTANT_FUNCTIONS: Record<string, EnvFunction> = {
  ...asFunctions({ ...TELECOM_READ_TOOLS, ...TELECOM_WRITE_TOOLS }),
  set_data_usage: fn(['customer_id', 'line_id', 'data_used_gb'], (state, args) => {
    targetLine(state.agent, args.customer_id, args.line_id).data_used_gb =
      args.data_used_gb as number;
  }),
  suspend_line_for_overdue_bill: fn(
    ['customer_id', 'line_id', 'new_bill_id', 'contract_ended'],
    suspendForOverdueBill,
  ),
  assert_data_refueling_amount: fn(['customer_id', 'line_id', 'expected_amount'], (state, args) => {
    const line = targetLine(state.agent, args.customer_id, args.line_id);
    return Math.abs(line.data_refueling_gb - (args.expected_amount as number)) < 1e-6;
  }),
  assert_line_status: fn(
    ['customer_id', 'line_id', 'expected_status'],
    (state, args) =>
      targetLine(state.agent, args.customer_id, args.line_id).status === args.expected_status,
  ),
  assert_no_overdue_bill: fn(['overdue_bill_id'], (state, args) => {
    const bill = state.agent.bills.find((candidate) => candidate.bill_id === args.overdue_bill_id);
    return !bill || bill.status === 'Paid';
  }),
};

/** Everything an env function call may name on the user's side (`TelecomUserTools`). */
const USER_FUNCTIONS: Record<string, EnvFunction> = {
  ...asFunctions(TELECOM_USER_TOOLS),
  set_user_info: fn(['name', 'phone_number'], (state, args) => {
    state.user.surroundings.name = args.name as string;
    state.user.surroundings.phone_number = args.phone_number as string;
  }),
  set_user_location: fn(['abroad'], (state, args) => {
    state.user.surroundings.is_abroad = Boolean(args.abroad);
  }),
  simulate_network_search: fn([], (state) => simulateNetworkSearch(state.user)),
  turn_airplane_mode_on: turn(toggleAirplaneMode, true),
  turn_airplane_mode_off: turn(toggleAirplaneMode, false),
  turn_data_off: turn(toggleData, false),
  turn_data_on: fn([], (state) => {
    state.user.device.data_enabled = true;
  }),
  turn_roaming_on: turn(toggleRoaming, true),
  turn_roaming_off: turn(toggleRoaming, false),
  turn_data_saver_mode_on: turn(toggleDataSaver, true),
  turn_data_saver_mode_off: turn(toggleDataSaver, false),
  unseat_sim_card: fn([], (state) => {
    state.user.device.sim_card_missing = true;
    simulateNetworkSearch(state.user);
  }),
  lock_sim_card: fn(['mode'], (state, args) => {
    if (args.mode === 'pin') state.user.device.sim_card_status = 'locked_pin';
    else if (args.mode === 'puk') state.user.device.sim_card_status = 'locked_puk';
    simulateNetworkSearch(state.user);
  }),
  break_apn_settings: fn([], (state) => {
    state.user.device.active_apn_settings.apn_name = 'broken';
    simulateNetworkSearch(state.user);
  }),
  break_apn_mms_setting: fn([], (state) => {
    state.user.device.active_apn_settings.mmsc_url = null;
  }),
  break_vpn: fn([], (state) => {
    connectVpn(state.user);
    state.user.device.vpn_details!.server_performance = 'poor';
  }),
  set_wifi_calling: fn(
    ['enabled', 'mms_over_wifi'],
    (state, args) => {
      const device = state.user.device;
      if (device.wifi_calling_enabled !== args.enabled) toggleWifiCalling(state.user);
      if (args.mms_over_wifi !== undefined && args.mms_over_wifi !== null)
        device.wifi_calling_mms_over_wifi = Boolean(args.mms_over_wifi);
    },
    ['mms_over_wifi'],
  ),
  remove_app_permission: fn(['app_name', 'permission'], (state, args) => {
    const app = state.user.device.app_statuses[args.app_name as string];
    const permission = String(args.permission).toLowerCase();
    if (app && Object.hasOwn(app.permissions, permission))
      app.permissions[permission as keyof typeof app.permissions] = false;
  }),
  assert_airplane_mode_status: fn(
    ['expected_status'],
    (state, args) => state.user.device.airplane_mode === args.expected_status,
  ),
  assert_service_status: fn(
    ['expected_status'],
    (state, args) => state.user.device.network_connection_status === args.expected_status,
  ),
  assert_mobile_data_status: fn(
    ['expected_status'],
    (state, args) => mobileDataWorking(state.user) === args.expected_status,
  ),
  assert_mobile_roaming_status: fn(
    ['expected_status'],
    (state, args) => state.user.device.roaming_enabled === args.expected_status,
  ),
  assert_mobile_data_saver_mode_status: fn(
    ['expected_status'],
    (state, args) => state.user.device.data_saver_mode === args.expected_status,
  ),
  assert_internet_speed: fn(
    ['expected_speed', 'expected_desc'],
    (state, args) => {
      const { speed, description } = speedTest(state.user);
      const fast = (speed ?? 0) >= (args.expected_speed as number);
      if (args.expected_desc === undefined || args.expected_desc === null) return fast;
      return fast && description.toLowerCase() === String(args.expected_desc).toLowerCase();
    },
    ['expected_desc'],
  ),
  assert_internet_not_excellent: fn(
    [],
    (state) => speedTest(state.user).description.toLowerCase() !== 'excellent',
  ),
  assert_can_send_mms: fn(
    ['expected_status'],
    (state, args) => canSendMms(state.user) === args.expected_status,
  ),
  assert_mobile_data_usage_exceeded: fn(
    ['expected_status'],
    (state, args) => state.user.surroundings.mobile_data_usage_exceeded === args.expected_status,
  ),
};

/** `run_env_function_call` without the sync: the named function of one side, called with keyword arguments. */
export function runEnvFunction(
  state: TelecomState,
  envType: 'user' | 'assistant',
  funcName: string,
  args: Args,
): unknown {
  const functions = envType === 'user' ? USER_FUNCTIONS : ASSISTANT_FUNCTIONS;
  const className = envType === 'user' ? 'TelecomUserTools' : 'TelecomTools';
  const found = Object.hasOwn(functions, funcName) ? functions[funcName] : undefined;
  if (!found) throw new ToolError(`'${className}' object has no attribute '${funcName}'`);
  return found.run(
    state,
    bindArguments(`${className}.${funcName}`, found.params, args, found.optional),
  );
}

/** `TelecomEnvironment.sync_tools`: the phone learns the line's status, roaming, data allowance and payment requests. */
export function syncTools(state: TelecomState): void {
  const { surroundings } = state.user;
  const phone = surroundings.phone_number;
  if (phone === null) return;
  const db = state.agent;
  const line = lineByPhone(db, phone);
  surroundings.line_active = line.status === 'Active';
  surroundings.roaming_allowed = line.roaming_enabled;
  const plan = planById(db, line.plan_id);
  surroundings.mobile_data_usage_exceeded =
    line.data_used_gb >= plan.data_limit_gb + line.data_refueling_gb;
  const request = surroundings.payment_request;
  if (request?.paid) {
    billById(db, request.bill_id).status = 'Paid';
    surroundings.payment_request = null;
  }
  if (surroundings.payment_request === null) {
    const awaiting = billsAwaitingPayment(db, customerByPhone(db, phone));
    if (awaiting.length > 0)
      surroundings.payment_request = {
        bill_id: awaiting[0]!.bill_id,
        amount_due: awaiting[0]!.total_due,
        paid: false,
      };
  }
}
