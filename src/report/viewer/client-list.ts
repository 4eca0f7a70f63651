/**
 * Browser code of the case browser, part 1 (plain JS as text, inlined into the page): DOM helpers,
 * lazy chunk decoding, filters over the compact columns, the paginated list and the URL state.
 * Data only ever reaches the page through textContent and DOM properties, never innerHTML.
 */
export const CLIENT_LIST = String.raw`
var $ = function (id) { return document.getElementById(id); };
function el(tag, props, children) {
  var node = document.createElement(tag);
  if (props) Object.keys(props).forEach(function (key) {
    var value = props[key];
    if (value === undefined || value === null) return;
    if (key === 'text') node.textContent = String(value);
    else if (key === 'className') node.className = value;
    else if (key.slice(0, 2) === 'on') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  });
  (children || []).forEach(function (child) {
    if (child === null || child === undefined || child === false) return;
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  });
  return node;
}
function readJson(id) { var node = $(id); return node ? JSON.parse(node.textContent) : null; }
function fmt(n) { return Number(n).toLocaleString('en-US'); }

var config = readJson('apb-config') || {};
var data = readJson('apb-index');
var STATUS = ['correct', 'incorrect', 'planner error', 'parse error', 'judge error'];
var STATUS_CLASS = ['ok', 'bad', 'fail', 'fail', 'fail'];
var PAGE = 50;
var state = { split: '', model: '', judge: '', outcome: '', error: '', behavior: '', level: '', q: '', sort: '', dir: '', page: 0, open: -1, compare: -1 };
var matches = [];
var byCase = [];
var searchText = null;

var chunkCache = new Map();
function inflate(base64) {
  var binary = atob(base64);
  var bytes = new Uint8Array(binary.length);
  for (var i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}
function loadChunk(kind, number) {
  var key = kind + number;
  if (!chunkCache.has(key)) {
    var node = $('apb-' + kind + '-' + number);
    var promise = node ? inflate(JSON.parse(node.textContent)).then(JSON.parse) : Promise.reject(new Error('missing data chunk ' + key));
    chunkCache.set(key, promise);
    if (chunkCache.size > 64) chunkCache.delete(chunkCache.keys().next().value);
  }
  return chunkCache.get(key);
}
function rowDetail(row) { var size = data.chunks.rows; return loadChunk('rows', Math.floor(row / size)).then(function (list) { return list[row % size]; }); }
function caseDetail(c) { var size = data.chunks.cases; return loadChunk('cases', Math.floor(c / size)).then(function (list) { return list[c % size]; }); }
var media = null;
function mediaItem(index) { if (media === null) media = readJson('apb-media') || []; return media[index] || null; }

function readState() {
  var params = new URLSearchParams(location.hash.slice(1));
  Object.keys(state).forEach(function (key) {
    if (!params.has(key)) return;
    var value = params.get(key);
    state[key] = typeof state[key] === 'number' ? (Number(value) || (key === 'page' ? 0 : -1)) : value;
  });
}
function writeState() {
  var params = new URLSearchParams();
  Object.keys(state).forEach(function (key) {
    var value = state[key];
    if (value !== '' && value !== -1 && !(key === 'page' && value === 0)) params.set(key, String(value));
  });
  history.replaceState(null, '', '#' + params.toString());
}

function options(select, entries, current) {
  select.replaceChildren();
  entries.forEach(function (entry) {
    var option = el('option', { value: entry[0], text: entry[1] });
    if (String(entry[0]) === String(current)) option.selected = true;
    select.appendChild(option);
  });
}
function distinct(values) { var seen = new Set(values); return Array.from(seen).sort(function (a, b) { return a - b; }); }

function setupFilters() {
  var R = data.rows, C = data.cases;
  var splitsUsed = distinct(C.split);
  options($('filter-split'), [['', 'all splits']].concat(splitsUsed.map(function (s) { return [String(s), data.splits[s]]; })), state.split);
  options($('filter-model'), [['', 'all models']].concat(data.models.map(function (m, i) { return [String(i), m]; })), state.model);
  options($('filter-judge'), [['', 'all judges']].concat(data.judges.map(function (j, i) { return [String(i), j]; })), state.judge);
  $('filter-judge-label').hidden = data.judges.length < 2;
  options($('filter-outcome'), [['', 'any outcome'], ['0', 'correct'], ['1', 'incorrect'], ['fail', 'any failure'], ['2', 'planner error'], ['3', 'parse error'], ['4', 'judge error']], state.outcome);
  options($('filter-error'), [['', 'any errors'], ['none', 'no error flag']].concat([1, 2, 3, 4, 5, 6].map(function (k) { return [String(k), 'E' + k]; })), state.error);
  var behaviors = distinct(R.b.filter(function (b) { return b >= 0; }));
  options($('filter-behavior'), [['', 'any behaviour']].concat(behaviors.map(function (b) { return [String(b), data.behaviors[b]]; })), state.behavior);
  var levels = distinct(C.level.filter(function (l) { return l >= 0; }));
  options($('filter-level'), [['', 'any level']].concat(levels.map(function (l) { return [String(l), l + ' distractors']; })), state.level);
  $('filter-search').value = state.q;
  ['split', 'model', 'judge', 'outcome', 'error', 'behavior', 'level'].forEach(function (key) {
    $('filter-' + key).addEventListener('change', function (event) { state[key] = event.target.value; state.page = 0; refresh(); });
  });
  var timer = 0;
  $('filter-search').addEventListener('input', function (event) {
    clearTimeout(timer);
    timer = setTimeout(function () { state.q = event.target.value.trim(); state.page = 0; refresh(); }, 150);
  });
  $('page-prev').addEventListener('click', function () { if (state.page > 0) { state.page -= 1; renderList(); } });
  $('page-next').addEventListener('click', function () { if ((state.page + 1) * PAGE < matches.length) { state.page += 1; renderList(); } });
}

function applyFilters() {
  var R = data.rows, C = data.cases, n = R.c.length;
  var split = state.split === '' ? -1 : Number(state.split);
  var model = state.model === '' ? -1 : Number(state.model);
  var judge = state.judge === '' ? -1 : Number(state.judge);
  var outcome = state.outcome;
  var error = state.error;
  var bit = error === '' || error === 'none' ? 0 : 1 << (Number(error) - 1);
  var behavior = state.behavior === '' ? -2 : Number(state.behavior);
  var level = state.level === '' ? -2 : Number(state.level);
  var query = state.q.toLowerCase();
  if (query && searchText === null) searchText = C.id.map(function (id, i) { return (id + '\n' + C.query[i]).toLowerCase(); });
  var result = [];
  for (var i = 0; i < n; i += 1) {
    var c = R.c[i];
    if (split >= 0 && C.split[c] !== split) continue;
    if (model >= 0 && R.m[i] !== model) continue;
    if (judge >= 0 && R.j[i] !== judge) continue;
    if (outcome === 'fail') { if (R.s[i] < 2) continue; } else if (outcome !== '' && R.s[i] !== Number(outcome)) continue;
    if (error === 'none') { if (R.e[i] !== 0) continue; } else if (bit && !(R.e[i] & bit)) continue;
    if (behavior !== -2 && R.b[i] !== behavior) continue;
    if (level !== -2 && C.level[c] !== level) continue;
    if (query && searchText[c].indexOf(query) < 0) continue;
    result.push(i);
  }
  matches = result;
}

function errorText(bits) { var out = []; for (var k = 0; k < 6; k += 1) if (bits & (1 << k)) out.push('E' + (k + 1)); return out.join(' '); }
function facetText(c) {
  var C = data.cases;
  if (C.level[c] >= 0) return C.level[c] + ' distractors';
  if (C.horizon[c] >= 0) return C.horizon[c] + '-step' + (C.stage[c] >= 0 ? ', ' + data.stages[C.stage[c]] : '');
  return '';
}
function gradeText(g) { return g < 0 ? '–' : (g / 5).toFixed(1); }

function renderList() {
  var R = data.rows, C = data.cases;
  var body = $('case-list');
  body.replaceChildren();
  var start = state.page * PAGE;
  var end = Math.min(matches.length, start + PAGE);
  var correct = 0;
  for (var k = 0; k < matches.length; k += 1) if (R.s[matches[k]] === 0) correct += 1;
  $('case-count').textContent = fmt(matches.length) + ' of ' + fmt(R.c.length) + ' judgements' + (matches.length ? ' · ' + (100 * correct / matches.length).toFixed(1) + ' % correct' : '') + (matches.length ? ' · showing ' + fmt(start + 1) + '–' + fmt(end) : '');
  for (var i = start; i < end; i += 1) {
    var row = matches[i], c = R.c[row];
    var status = R.s[row];
    var open = el('button', { type: 'button', className: 'link', text: C.id[c], 'data-row': row, onclick: (function (target) { return function () { openCase(target, -1); $('case-view').scrollIntoView({ block: 'nearest' }); }; })(row) });
    body.appendChild(el('tr', { className: 'case-row' + (row === state.open ? ' current' : '') }, [
      el('td', {}, [open]),
      el('td', { text: data.splits[C.split[c]] }),
      el('td', { text: modelOf(row) }),
      data.judges.length > 1 ? el('td', { text: data.judges[R.j[row]] }) : null,
      el('td', {}, [el('span', { className: 'badge ' + STATUS_CLASS[status], text: STATUS[status] })]),
      el('td', { className: 'num', text: gradeText(R.g[row]) }),
      el('td', { text: errorText(R.e[row]) }),
      el('td', { className: 'wide', text: R.b[row] >= 0 ? data.behaviors[R.b[row]] : '' }),
      el('td', { className: 'wide', text: facetText(c) }),
      el('td', { className: 'query wide', text: C.query[c].slice(0, 120) }),
    ]));
  }
  $('page-prev').disabled = state.page === 0;
  $('page-next').disabled = end >= matches.length;
  showSort();
  var wrap = body.closest('.table-wrap');
  if (wrap) updateScrollCue(wrap);
  writeState();
}
function refresh() { applyFilters(); applySort(); renderList(); }
`;
