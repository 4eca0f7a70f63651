/** The viewer's live banner: polls the viewer's status and offers (or makes) a reload when new results are in. */
import { $, fmt } from './dom.js';
import type { LiveConfig, LiveStatus } from './page-data.js';
import { config, view } from './store.js';

/** "45s", "3m05s", "2h07m". */
export function etaText(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

function statusText(status: LiveStatus, fresh: boolean): string {
  const p = status.progress;
  const progress = p
    ? ` · ${fmt(p.done)}${p.total !== null ? ` of ${fmt(p.total)}` : ' so far'}` +
      (p.eta_seconds !== null ? `, ETA ${etaText(p.eta_seconds)}` : '')
    : '';
  const running = status.running ? ` (run in progress${progress})` : '';
  const news = fresh ? ' · new results available' : ' · up to date';
  return `Live: ${fmt(status.judgements)} judgements${running}${news}`;
}

function check(live: LiveConfig): void {
  fetch(live.statusUrl, { cache: 'no-store' })
    .then((response) => response.json() as Promise<LiveStatus>)
    .then((status) => {
      const fresh = status.version !== live.version;
      $('live-status').textContent = statusText(status, fresh);
      $('live-update').hidden = !fresh;
      const auto = $<HTMLInputElement>('live-auto').checked;
      if (fresh && auto && view.state.open < 0) location.reload();
    })
    .catch(() => {
      $('live-status').textContent = 'Live: the viewer is not reachable';
    });
}

/** Shows the banner and starts polling (in the viewer only: a report file has no live config). */
export function poll(): void {
  const live = config.live;
  if (!live) return;
  $('live-banner').hidden = false;
  $('live-update').addEventListener('click', () => location.reload());
  const auto = $<HTMLInputElement>('live-auto');
  auto.checked = sessionStorage.getItem('apb-live-auto') === '1';
  auto.addEventListener('change', () =>
    sessionStorage.setItem('apb-live-auto', auto.checked ? '1' : '0'),
  );
  check(live);
  setInterval(() => check(live), live.intervalMs || 3000);
}
