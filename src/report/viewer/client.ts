/**
 * The case browser's script, assembled: list and case parts plus start-up and, in the viewer, the
 * live-update poll. One static text per build, so the page's CSP can allow exactly its hash.
 */
import { CLIENT_CASE } from './client-case.js';
import { CLIENT_LIST } from './client-list.js';
import { CLIENT_SORT } from './client-sort.js';

const CLIENT_START = String.raw`
function start() {
  if (!data) { $('case-browser-empty').hidden = false; $('case-browser').hidden = true; return; }
  for (var c = 0; c < data.cases.id.length; c += 1) byCase.push([]);
  for (var i = 0; i < data.rows.c.length; i += 1) byCase[data.rows.c[i]].push(i);
  readState();
  setupFilters();
  setupSort();
  setupExport();
  $('col-judge').hidden = data.judges.length < 2;
  $('compare-select').addEventListener('change', function (event) { openCase(state.open, Number(event.target.value)); });
  $('case-close').addEventListener('click', closeCase);
  // A bookmark or a link that changes only the hash: start again from it (state writes use replaceState, which fires no hashchange).
  window.addEventListener('hashchange', function () { location.reload(); });
  document.addEventListener('keydown', function (event) { if (event.key === 'Escape' && state.open >= 0) closeCase(); });
  refresh();
  if (state.open >= 0) openCase(state.open, state.compare);
  document.documentElement.setAttribute('data-ready', 'true');
  if (window.performance && performance.mark) performance.mark('apb-ready');
}
function etaText(seconds) {
  if (seconds < 60) return seconds + 's';
  var minutes = Math.floor(seconds / 60);
  return minutes < 60 ? minutes + 'm' + String(seconds % 60).padStart(2, '0') + 's' : Math.floor(minutes / 60) + 'h' + String(minutes % 60).padStart(2, '0') + 'm';
}
function poll() {
  if (!config.live) return;
  var banner = $('live-banner');
  banner.hidden = false;
  $('live-update').addEventListener('click', function () { location.reload(); });
  $('live-auto').checked = sessionStorage.getItem('apb-live-auto') === '1';
  $('live-auto').addEventListener('change', function (event) { sessionStorage.setItem('apb-live-auto', event.target.checked ? '1' : '0'); });
  function check() {
    fetch(config.live.statusUrl, { cache: 'no-store' }).then(function (response) { return response.json(); }).then(function (status) {
      var fresh = status.version !== config.live.version;
      var progress = status.progress ? ' · ' + fmt(status.progress.done) + (status.progress.total !== null ? ' of ' + fmt(status.progress.total) : ' so far') + (status.progress.eta_seconds !== null ? ', ETA ' + etaText(status.progress.eta_seconds) : '') : '';
      $('live-status').textContent = 'Live: ' + fmt(status.judgements) + ' judgements' + (status.running ? ' (run in progress' + progress + ')' : '') + (fresh ? ' · new results available' : ' · up to date');
      $('live-update').hidden = !fresh;
      if (fresh && $('live-auto').checked && state.open < 0) location.reload();
    }).catch(function () { $('live-status').textContent = 'Live: the viewer is not reachable'; });
  }
  check();
  setInterval(check, config.live.intervalMs || 3000);
}
try { start(); } finally { setupScrollCues(); poll(); }
`;

/** The whole client script (strict mode, wrapped so nothing leaks into the page's globals). */
export const CLIENT_SCRIPT = `(function () {\n'use strict';\n${CLIENT_LIST}\n${CLIENT_SORT}\n${CLIENT_CASE}\n${CLIENT_START}\n})();`;
