/**
 * The page script's entry (bundled by scripts/build-client.mjs into one IIFE, whose SHA-256 the
 * page's CSP allows): builds the case browser from the page's data, then the scroll cues and, in
 * the viewer, the live poll.
 */
import { $ } from './dom.js';
import { setupExport } from './export.js';
import { setupFilters } from './filters.js';
import { onOpen, refresh, renderList } from './list.js';
import { poll } from './live.js';
import { closeCase, openCase } from './open-case.js';
import { setupScrollCues } from './scroll-cue.js';
import { setupSort } from './sort.js';
import { setupTableSort } from './table-sort.js';
import { data, hasData, readState, view } from './store.js';

function start(): void {
  if (!hasData) {
    $('case-browser-empty').hidden = false;
    $('case-browser').hidden = true;
    return;
  }
  for (let c = 0; c < data.cases.id.length; c += 1) view.byCase.push([]);
  for (let i = 0; i < data.rows.c.length; i += 1) view.byCase[data.rows.c[i]!]!.push(i);
  readState();
  setupFilters(refresh, renderList);
  setupSort(refresh);
  setupExport();
  onOpen((row) => {
    openCase(row, -1);
    $('case-view').scrollIntoView({ block: 'nearest' });
  });
  $('col-judge').hidden = data.judges.length < 2;
  const select = $<HTMLSelectElement>('compare-select');
  select.addEventListener('change', () => openCase(view.state.open, Number(select.value)));
  $('case-close').addEventListener('click', closeCase);
  // A bookmark or a link that changes only the hash: start again from it (state writes use replaceState, which fires no hashchange).
  window.addEventListener('hashchange', () => location.reload());
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && view.state.open >= 0) closeCase();
  });
  refresh();
  if (view.state.open >= 0) openCase(view.state.open, view.state.compare);
  document.documentElement.setAttribute('data-ready', 'true');
  if (window.performance && performance.mark) performance.mark('apb-ready');
}

try {
  start();
} finally {
  setupTableSort();
  setupScrollCues();
  poll();
}
