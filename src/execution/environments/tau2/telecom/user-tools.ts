/**
 * The user's tools (tau2's `TelecomUserTools` tools): what the simulated user can check and change
 * on their own phone, with tau2's answer texts. The agent never sees these tools or their results;
 * it asks the user to use them.
 */
import { pyFloatRepr, pyRepr, pyStr, pyTypeName, ToolError } from '../python.js';
import { validateModel } from '../pydantic.js';
import type { Tau2Tool } from '../toolkit.js';
import { ApnSettings, NETWORK_MODES, type PhoneState, type TelecomState } from './model.js';
import {
  canSendMms,
  connectVpn,
  disconnectVpn,
  rebootDevice,
  simStatus,
  simulateNetworkSearch,
  speedTest,
  toggleAirplaneMode,
  toggleData,
  toggleDataSaver,
  toggleRoaming,
  toggleWifi,
  toggleWifiCalling,
  withStatusBar,
} from './phone.js';
import { statusBar } from './phone.js';

type Phone = TelecomState['user'];
const onOff = (on: boolean) => (on ? 'ON' : 'OFF');
const yesNo = (on: boolean) => (on ? 'Yes' : 'No');

function networkStatus(phone: Phone): string {
  const { device } = phone;
  const lines = [
    `Airplane Mode: ${onOff(device.airplane_mode)}`,
    `SIM Card Status: ${simStatus(phone)}`,
    `Cellular Connection: ${device.network_connection_status}`,
    `Cellular Signal: ${device.network_signal_strength}`,
    `Cellular Network Type: ${device.network_technology_connected}`,
    `Mobile Data Enabled: ${yesNo(device.data_enabled)}`,
    `Data Roaming Enabled: ${yesNo(device.roaming_enabled)}`,
    `Wi-Fi Radio: ${onOff(device.wifi_enabled)}`,
    `Wi-Fi Connected: ${yesNo(device.wifi_connected)}`,
  ];
  if (device.wifi_connected) lines.push(`Connected Wi-Fi Network: ${pyStr(device.wifi_ssid)}`);
  return lines.join('\n');
}

const SPEED_ADVICE: Record<string, string> = {
  'Very Poor': 'Connection is very slow. Basic web browsing might be difficult.',
  Poor: 'Connection is slow. Web browsing may be sluggish, streaming difficult.',
  Fair: 'Connection is okay for web browsing and some standard definition streaming.',
  Good: 'Connection is good for most activities, including HD streaming.',
  Excellent: 'Connection is very fast.',
};

function runSpeedTest(phone: Phone): string {
  const { speed, description } = speedTest(phone);
  if (speed === null) return `Speed test failed: ${description || 'Could not determine speed'}.`;
  return `Speed Test Result: ${speed.toFixed(2)} Mbps (${description}). ${SPEED_ADVICE[description] ?? ''}`;
}

function setNetworkMode(phone: Phone, mode: unknown): string {
  if (typeof mode !== 'string')
    throw new ToolError(`'${pyTypeName(mode)}' object has no attribute 'value'`);
  if (!(NETWORK_MODES as readonly string[]).includes(mode))
    return withStatusBar(
      phone,
      `Failed to set network mode: '${mode}' is not a valid option. Please use one of: ${NETWORK_MODES.join(', ')}`,
    );
  phone.device.network_mode_preference = mode as PhoneState['network_mode_preference'];
  simulateNetworkSearch(phone);
  return withStatusBar(phone, `Preferred Network Mode set to: ${mode}`);
}

function setApnSettings(phone: Phone, settings: unknown): string {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings))
    throw new ToolError(`'${pyTypeName(settings)}' object has no attribute 'apn_name'`);
  const apn = validateModel('APNSettings', ApnSettings, settings);
  phone.device.active_apn_settings = apn as PhoneState['active_apn_settings'];
  simulateNetworkSearch(phone);
  return withStatusBar(phone, `APN settings set to: ${pyStr(apn.apn_name)}`);
}

/** The permissions an app holds, in the model's order (sms, storage, phone, network). */
function grantedPermissions(phone: Phone, app: unknown): string[] | null {
  const status = typeof app === 'string' ? phone.device.app_statuses[app] : undefined;
  if (!status || !Object.hasOwn(phone.device.app_statuses, app as string)) return null;
  return Object.entries(status.permissions)
    .filter(([, granted]) => granted)
    .map(([name]) => name.replace(/_/g, ' ').toLowerCase());
}

function appStatus(phone: Phone, app: unknown): string {
  const granted = grantedPermissions(phone, app);
  if (granted === null) return `App '${pyStr(app)}' not found on this phone.`;
  const lines = [`Status for App: ${pyStr(app)}`];
  if (granted.length === 0) lines.push(' - Permissions: None granted.');
  else lines.push(' - Permissions Granted:', ...granted.map((name) => `   - ${name}`));
  return lines.join('\n');
}

function appPermissions(phone: Phone, app: unknown): string {
  const granted = grantedPermissions(phone, app);
  if (granted === null) return `App '${pyStr(app)}' not found on this phone.`;
  if (granted.length === 0) return `App '${pyStr(app)}' currently has no permissions granted.`;
  return `App '${pyStr(app)}' has permission for: ${granted.join(', ')}.`;
}

function grantPermission(phone: Phone, app: unknown, permission: unknown): string {
  if (typeof permission !== 'string')
    throw new ToolError(`'${pyTypeName(permission)}' object has no attribute 'lower'`);
  const name = permission.toLowerCase();
  const status =
    typeof app === 'string' && Object.hasOwn(phone.device.app_statuses, app)
      ? phone.device.app_statuses[app]!
      : null;
  let result: string;
  if (!status) result = `Error. App '${pyStr(app)}' not found. Cannot grant permission.`;
  else if (!Object.hasOwn(status.permissions, name))
    result = `Error. Permission '${name}' not tracked for app '${pyStr(app)}', available permissions: ${pyRepr(Object.keys(status.permissions))}`;
  else {
    status.permissions[name as keyof typeof status.permissions] = true;
    result = `Success. Permission '${name}' granted to app '${pyStr(app)}'.`;
  }
  return withStatusBar(phone, result);
}

function vpnStatus(phone: Phone): string {
  const { device } = phone;
  if (device.vpn_connected) {
    const details = device.vpn_details;
    if (!details) return 'VPN is ON and connected (no specific details available).';
    // tau2 prints the dumped model as a Python dict: the performance level is an enum member there.
    const performance = `<PerformanceLevel.${details.server_performance.toUpperCase()}: '${details.server_performance}'>`;
    return `VPN is ON and connected. Details: {'server_address': ${pyRepr(details.server_address)}, 'protocol': ${pyRepr(details.protocol)}, 'server_performance': ${performance}}`;
  }
  if (device.vpn_enabled_setting)
    return 'VPN is turned ON in settings, but currently not connected.';
  return 'VPN is turned OFF.';
}

function wifiStatus(phone: Phone): string {
  const { device } = phone;
  if (!device.wifi_enabled) return 'Wi-Fi is turned OFF.';
  if (device.wifi_connected)
    return `Wi-Fi is ON and connected to '${pyStr(device.wifi_ssid)}'. Signal strength: ${device.wifi_signal_strength}.`;
  return 'Wi-Fi is ON but not connected to any network.';
}

function paymentRequest(phone: Phone): string {
  const request = phone.surroundings.payment_request;
  if (!request) return 'No payment request has been made.';
  return `You have a payment request for bill ${request.bill_id} of ${pyFloatRepr(request.amount_due)} USD.`;
}

function makePayment(phone: Phone): string {
  const request = phone.surroundings.payment_request;
  if (!request) return 'You do not have a payment request.';
  request.paid = true;
  return `Payment of ${pyFloatRepr(request.amount_due)} USD has been made for bill ${request.bill_id}.`;
}

const SIM_TEXT: Record<string, string> = {
  active: 'Your SIM card is active and working.',
  missing: 'No SIM card detected in the phone.',
  locked_pin: 'The SIM card is locked with a PIN code.',
  locked_puk: 'The SIM card is locked with a PUK code.',
};

type Run = (phone: Phone, args: Record<string, unknown>) => string;
const tool = (kind: 'read' | 'write', run: Run, params: string[] = []): Tau2Tool<TelecomState> => ({
  kind,
  params,
  run: (state, args) => run(state.user, args),
});
const toggled =
  (label: string, toggle: (phone: Phone) => boolean): Run =>
  (phone) =>
    withStatusBar(phone, `${label} is now ${onOff(toggle(phone))}.`);

/** The user's tools on their phone (tau2's `TelecomUserTools`). */
export const TELECOM_USER_TOOLS: Record<string, Tau2Tool<TelecomState>> = {
  check_status_bar: tool('read', (phone) => `Status Bar: ${statusBar(phone)}`),
  check_network_status: tool('read', networkStatus),
  check_network_mode_preference: tool(
    'read',
    (phone) => `Network Mode Preference: ${phone.device.network_mode_preference}`,
  ),
  set_network_mode_preference: tool('write', (phone, args) => setNetworkMode(phone, args.mode), [
    'mode',
  ]),
  run_speed_test: tool('read', runSpeedTest),
  toggle_airplane_mode: tool('write', toggled('Airplane Mode', toggleAirplaneMode)),
  check_sim_status: tool('read', (phone) => SIM_TEXT[simStatus(phone)]!),
  reseat_sim_card: tool('write', (phone) => {
    phone.device.sim_card_missing = false;
    simulateNetworkSearch(phone);
    return withStatusBar(phone, 'SIM card re-seated successfully.');
  }),
  toggle_data: tool('write', toggled('Mobile Data', toggleData)),
  toggle_roaming: tool('write', toggled('Data Roaming', toggleRoaming)),
  check_data_restriction_status: tool('read', (phone) =>
    phone.device.data_saver_mode
      ? 'Data Saver mode is ON (limits data usage).'
      : 'Data Saver mode is OFF.',
  ),
  toggle_data_saver_mode: tool('write', toggled('Data Saver Mode', toggleDataSaver)),
  check_apn_settings: tool('read', (phone) => {
    const apn = phone.device.active_apn_settings;
    return `Current APN Name: ${apn.apn_name || 'Not Set'}\nMMSC URL (for picture messages): ${apn.mmsc_url || 'Not Set'}\n(These are technical settings, usually best left unchanged.)`;
  }),
  set_apn_settings: tool('write', (phone, args) => setApnSettings(phone, args.apn_settings), [
    'apn_settings',
  ]),
  reset_apn_settings: tool('write', (phone) => {
    phone.device.active_apn_settings.reset_at_reboot = true;
    simulateNetworkSearch(phone);
    return withStatusBar(phone, 'APN settings will reset at reboot.');
  }),
  check_wifi_status: tool('read', wifiStatus),
  toggle_wifi: tool('write', (phone) => {
    const state = toggleWifi(phone);
    if (state === null)
      return withStatusBar(phone, 'Cannot change Wi-Fi settings while Airplane Mode is ON.');
    return withStatusBar(phone, `Wi-Fi is now ${onOff(state)}.`);
  }),
  check_wifi_calling_status: tool(
    'read',
    (phone) => `Wi-Fi Calling is currently turned ${onOff(phone.device.wifi_calling_enabled)}.`,
  ),
  toggle_wifi_calling: tool('write', toggled('Wi-Fi Calling', toggleWifiCalling)),
  check_vpn_status: tool('read', vpnStatus),
  connect_vpn: tool('write', (phone) => {
    if (connectVpn(phone) === null) return 'VPN already connected.';
    return withStatusBar(phone, 'VPN connected successfully.');
  }),
  disconnect_vpn: tool('write', (phone) =>
    withStatusBar(
      phone,
      disconnectVpn(phone)
        ? 'VPN disconnected successfully.'
        : 'No active VPN connection to disconnect.',
    ),
  ),
  check_installed_apps: tool(
    'read',
    (phone) =>
      `The following apps are installed on the phone: ${Object.keys(phone.device.app_statuses).join(', ')}`,
  ),
  check_app_status: tool('read', (phone, args) => appStatus(phone, args.app_name), ['app_name']),
  check_app_permissions: tool('read', (phone, args) => appPermissions(phone, args.app_name), [
    'app_name',
  ]),
  grant_app_permission: tool(
    'write',
    (phone, args) => grantPermission(phone, args.app_name, args.permission),
    ['app_name', 'permission'],
  ),
  can_send_mms: tool('read', (phone) =>
    canSendMms(phone)
      ? 'Your messaging app can send MMS messages.'
      : 'Your messaging app cannot send MMS messages.',
  ),
  reboot_device: tool('write', (phone) => withStatusBar(phone, rebootDevice(phone))),
  check_payment_request: tool('read', paymentRequest),
  make_payment: tool('write', makePayment),
};
