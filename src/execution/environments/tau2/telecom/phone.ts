/**
 * The user's phone as tau2 simulates it (`TelecomUserTools`' private helpers): the network search
 * a setting change triggers, whether mobile data works, the speed test, whether MMS can be sent,
 * the status bar, and the toggles the user's tools and the task set-up share. Pure functions of
 * the user's side of the state (device and surroundings), in tau2's order of checks.
 */
import { pyRound } from '../python.js';
import { ApnSettings, type PhoneState, type TelecomUserDb } from './model.js';

type Phone = TelecomUserDb;

/** `_check_sim_status`: a removed SIM reads as missing whatever its status. */
export function simStatus(phone: Phone): PhoneState['sim_card_status'] {
  return phone.device.sim_card_missing ? 'missing' : phone.device.sim_card_status;
}

const TECHNOLOGY_OF_MODE = {
  '4g_only': '4G',
  '3g_only': '3G',
  '2g_only': '2G',
} as const;

function noService(device: PhoneState): void {
  device.network_connection_status = 'no_service';
  device.network_technology_connected = 'none';
  device.network_signal_strength = 'none';
}

/** `simulate_network_search`: what the phone connects to, given the SIM, the mode preference and where the user is. */
export function simulateNetworkSearch(phone: Phone): void {
  const { device, surroundings } = phone;
  const signal = (technology: string) => surroundings.signal_strength[technology] ?? 'none';
  if (simStatus(phone) === 'active') {
    device.network_connection_status = 'connected';
    const preference = device.network_mode_preference;
    let technology: PhoneState['network_technology_connected'];
    if (preference === '4g_5g_preferred') technology = signal('5G') === 'none' ? '4G' : '5G';
    else technology = TECHNOLOGY_OF_MODE[preference] ?? '4G';
    device.network_technology_connected = technology;
    device.network_signal_strength = signal(technology);
  } else noService(device);
  if (device.airplane_mode) noService(device);
  if (device.active_apn_settings.apn_name === 'broken') noService(device);
  if (!surroundings.line_active) noService(device);
}

/** `_get_mobile_data_working`. */
export function mobileDataWorking(phone: Phone): boolean {
  const { device, surroundings } = phone;
  if (device.airplane_mode || device.network_signal_strength === 'none') return false;
  if (device.network_connection_status === 'no_service') return false;
  if (surroundings.is_abroad && (!device.roaming_enabled || !surroundings.roaming_allowed))
    return false;
  if (!device.data_enabled) return false;
  return !surroundings.mobile_data_usage_exceeded;
}

const SPEED_RANGE: Record<string, [number, number]> = {
  '2G': [0.1, 0.4],
  '3G': [1.0, 5.0],
  '4G': [10.0, 100.0],
  '5G': [50.0, 500.0],
  none: [0, 0],
};
const SIGNAL_FACTOR: Record<string, number> = {
  poor: 0.2,
  fair: 0.5,
  good: 0.8,
  excellent: 1.0,
  none: 0,
};

/** `_run_speed_test`: the simulated download speed and its description, or null speed without data. */
export function speedTest(phone: Phone): { speed: number | null; description: string } {
  if (!mobileDataWorking(phone)) return { speed: null, description: 'No Connection' };
  const { device } = phone;
  let factor =
    device.vpn_connected && device.vpn_details?.server_performance === 'poor' ? 0.1 : 1.0;
  if (device.data_saver_mode) factor *= 0.2;
  const [low, high] = SPEED_RANGE[device.network_technology_connected] ?? [0, 0];
  const signal = SIGNAL_FACTOR[device.network_signal_strength] ?? 0;
  const speed = pyRound(((low + high) / 2.0) * signal * factor, 2);
  const description =
    speed < 1
      ? 'Very Poor'
      : speed < 5
        ? 'Poor'
        : speed < 25
          ? 'Fair'
          : speed < 100
            ? 'Good'
            : 'Excellent';
  return { speed, description };
}

/** `_can_send_mms`: data working, 3G or better, no MMS over Wi-Fi calling, an MMSC URL, and the messaging app's SMS and storage permissions. */
export function canSendMms(phone: Phone): boolean {
  const { device } = phone;
  if (!mobileDataWorking(phone)) return false;
  if (device.network_technology_connected === '2G') return false;
  if (device.wifi_calling_enabled && device.wifi_calling_mms_over_wifi) return false;
  if (device.active_apn_settings.mmsc_url === null) return false;
  const messaging = device.app_statuses.messaging;
  if (!messaging) return false;
  return messaging.permissions.storage && messaging.permissions.sms;
}

const SIGNAL_ICON: Record<string, string> = {
  none: '📵 No Signal',
  poor: '📶¹ Poor',
  fair: '📶² Fair',
  good: '📶³ Good',
  excellent: '📶⁴ Excellent',
};

/** `_check_status_bar`: the icons at the top of the screen, joined with ` | `. */
export function statusBar(phone: Phone): string {
  const { device } = phone;
  const icons: string[] = [];
  if (device.airplane_mode) icons.push('✈️ Airplane Mode');
  else {
    icons.push(SIGNAL_ICON[device.network_signal_strength] ?? '📵 No Signal');
    const connected = device.network_technology_connected !== 'none';
    if (connected) icons.push(device.network_technology_connected);
    if (device.data_enabled && connected) {
      icons.push('📱 Data Enabled');
      if (device.data_saver_mode) icons.push('🔽 Data Saver');
    } else icons.push('📵 Data Disabled');
  }
  if (device.wifi_enabled && device.wifi_connected)
    icons.push(device.wifi_ssid ? `📡 Connected to ${device.wifi_ssid}` : '📡 Enabled');
  if (device.vpn_connected) icons.push('🔒 VPN Connected');
  icons.push(`🔋 ${device.battery_level}%`);
  return icons.join(' | ');
}

/** The status bar line tau2 appends to most write tools' answers. */
export const withStatusBar = (phone: Phone, text: string): string =>
  `${text}\nStatus Bar: ${statusBar(phone)}`;

function dropWifi(device: PhoneState): void {
  device.wifi_connected = false;
  device.wifi_ssid = null;
  device.wifi_signal_strength = 'none';
}

/** `_disconnect_vpn`: false when no VPN was connected. */
export function disconnectVpn(phone: Phone): boolean {
  if (!phone.device.vpn_connected) return false;
  phone.device.vpn_connected = false;
  phone.device.vpn_details = null;
  return true;
}

/** `_connect_vpn`: null when already connected; else connects to tau2's default VPN server. */
export function connectVpn(phone: Phone): boolean | null {
  if (phone.device.vpn_connected) return null;
  phone.device.vpn_connected = true;
  // tau2 assigns one shared default object (so break_vpn degrades it for every later session); apb copies it.
  phone.device.vpn_details = {
    server_address: '192.168.1.1',
    protocol: 'OpenVPN',
    server_performance: 'excellent',
  };
  return true;
}

/** `_toggle_airplane_mode`: the new state; leaving airplane mode searches for a network again. */
export function toggleAirplaneMode(phone: Phone): boolean {
  const { device } = phone;
  const wasOn = device.airplane_mode;
  device.airplane_mode = !wasOn;
  if (wasOn) {
    device.network_connection_status = 'searching';
    if (device.wifi_enabled) dropWifi(device);
  } else {
    dropWifi(device);
    if (device.vpn_connected) disconnectVpn(phone);
  }
  simulateNetworkSearch(phone);
  return device.airplane_mode;
}

/** `_toggle_data`: flips mobile data and searches again. */
export function toggleData(phone: Phone): boolean {
  phone.device.data_enabled = !phone.device.data_enabled;
  simulateNetworkSearch(phone);
  return phone.device.data_enabled;
}

/** `_toggle_roaming`: flips data roaming and searches again. */
export function toggleRoaming(phone: Phone): boolean {
  phone.device.roaming_enabled = !phone.device.roaming_enabled;
  simulateNetworkSearch(phone);
  return phone.device.roaming_enabled;
}

/** `_toggle_data_saver_mode`. */
export function toggleDataSaver(phone: Phone): boolean {
  phone.device.data_saver_mode = !phone.device.data_saver_mode;
  return phone.device.data_saver_mode;
}

/** `_toggle_wifi`: null while airplane mode is on; turning Wi-Fi off drops the connection. */
export function toggleWifi(phone: Phone): boolean | null {
  const { device } = phone;
  if (device.airplane_mode) return null;
  device.wifi_enabled = !device.wifi_enabled;
  if (!device.wifi_enabled) dropWifi(device);
  return device.wifi_enabled;
}

/** `_toggle_wifi_calling`. */
export function toggleWifiCalling(phone: Phone): boolean {
  phone.device.wifi_calling_enabled = !phone.device.wifi_calling_enabled;
  return phone.device.wifi_calling_enabled;
}

/** `_reboot_device`: resets the APN if a reset is pending, then restarts the network search. */
export function rebootDevice(phone: Phone): string {
  const lines: string[] = [];
  if (phone.device.active_apn_settings.reset_at_reboot) {
    lines.push('Resetting APN settings...');
    phone.device.active_apn_settings = ApnSettings.parse({});
  }
  lines.push('Restarting network services...');
  phone.device.network_connection_status = 'searching';
  simulateNetworkSearch(phone);
  return lines.join('\n');
}
