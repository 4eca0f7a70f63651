/**
 * Browser code of the case browser, part 3 (plain JS as text): sorting the filtered list by any
 * column (dataset order by default, ties kept in dataset order), exporting the filtered list as
 * CSV or JSONL (a Blob download: no request leaves the page), and the scroll cue of wide tables.
 */
export const CLIENT_SORT = String.raw`
var SORT_KEYS = {
  case: function (i) { return data.cases.id[data.rows.c[i]]; },
  split: function (i) { return data.cases.split[data.rows.c[i]]; },
  model: function (i) { return data.models[data.rows.m[i]]; },
  judge: function (i) { return data.judges[data.rows.j[i]]; },
  outcome: function (i) { return data.rows.s[i]; },
  grade: function (i) { return data.rows.g[i]; },
  errors: function (i) { var bits = data.rows.e[i], n = 0; for (var k = 0; k < 6; k += 1) if (bits & (1 << k)) n += 1; return n * 64 + bits; },
  behavior: function (i) { return data.rows.b[i]; },
  facet: function (i) { var c = data.rows.c[i]; return data.cases.level[c] * 1000 + data.cases.horizon[c] * 10 + data.cases.stage[c]; },
  query: function (i) { return data.cases.query[data.rows.c[i]]; },
};
var collator = typeof Intl !== 'undefined' ? new Intl.Collator('en', { numeric: true, sensitivity: 'base' }) : null;
function compareValues(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator ? collator.compare(String(a), String(b)) : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
function applySort() {
  var key = SORT_KEYS[state.sort];
  if (!key) return;
  var sign = state.dir === 'desc' ? -1 : 1;
  var values = new Map();
  matches.forEach(function (i) { values.set(i, key(i)); });
  matches.sort(function (a, b) { return sign * compareValues(values.get(a), values.get(b)) || a - b; });
}
function setupSort() {
  document.querySelectorAll('th[data-sort]').forEach(function (th) {
    var button = el('button', { type: 'button', className: 'sort', text: th.textContent, title: 'sort by ' + th.textContent.toLowerCase() });
    th.replaceChildren(button);
    button.addEventListener('click', function () {
      var key = th.getAttribute('data-sort');
      if (state.sort !== key) { state.sort = key; state.dir = 'asc'; }
      else if (state.dir === 'asc') state.dir = 'desc';
      else { state.sort = ''; state.dir = ''; }
      state.page = 0;
      refresh();
    });
  });
}
function showSort() {
  document.querySelectorAll('th[data-sort]').forEach(function (th) {
    var on = th.getAttribute('data-sort') === state.sort;
    th.setAttribute('aria-sort', on ? (state.dir === 'desc' ? 'descending' : 'ascending') : 'none');
  });
  $('sort-note').textContent = state.sort ? 'sorted by ' + state.sort + (state.dir === 'desc' ? ' (descending)' : '') + ' · ' : 'in dataset order · ';
}

var EXPORT_FIELDS = ['case_id', 'split', 'model', 'judge', 'outcome', 'grade', 'errors', 'behaviour', 'facet', 'query'];
function exportRecord(i) {
  var R = data.rows, C = data.cases, c = R.c[i];
  return { case_id: C.id[c], split: data.splits[C.split[c]], model: data.models[R.m[i]], judge: data.judges[R.j[i]], repeat: R.r[i], outcome: STATUS[R.s[i]], grade: R.g[i] < 0 ? null : R.g[i] / 5, errors: errorText(R.e[i]), behaviour: R.b[i] >= 0 ? data.behaviors[R.b[i]] : null, facet: facetText(c), query: C.query[c] };
}
function csvField(value) {
  if (value === null || value === undefined) return '';
  var text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = "'" + text;
  return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
}
function exportText(kind) {
  var records = matches.map(exportRecord);
  if (kind === 'jsonl') return records.map(function (record) { return JSON.stringify(record); }).join('\n') + (records.length ? '\n' : '');
  var fields = EXPORT_FIELDS.slice(0, 4).concat(['repeat'], EXPORT_FIELDS.slice(4));
  return [fields.join(',')].concat(records.map(function (record) { return fields.map(function (name) { return csvField(record[name]); }).join(','); })).join('\r\n') + '\r\n';
}
function download(kind) {
  var blob = new Blob([exportText(kind)], { type: kind === 'csv' ? 'text/csv' : 'application/x-ndjson' });
  var link = el('a', { download: 'apb-cases.' + kind });
  link.href = URL.createObjectURL(blob);
  document.body.appendChild(link);
  link.click();
  setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
}
function setupExport() {
  $('export-csv').addEventListener('click', function () { download('csv'); });
  $('export-jsonl').addEventListener('click', function () { download('jsonl'); });
}

function updateScrollCue(wrap) {
  var box = wrap.querySelector('.scroll');
  if (!box) return;
  var overflowing = box.scrollWidth > box.clientWidth + 1;
  wrap.classList.toggle('overflowing', overflowing);
  wrap.classList.toggle('at-end', !overflowing || box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
}
function setupScrollCues() {
  var wraps = Array.prototype.slice.call(document.querySelectorAll('.table-wrap'));
  wraps.forEach(function (wrap) {
    var box = wrap.querySelector('.scroll');
    if (box) box.addEventListener('scroll', function () { updateScrollCue(wrap); }, { passive: true });
    updateScrollCue(wrap);
  });
  window.addEventListener('resize', function () { wraps.forEach(updateScrollCue); });
  if (typeof ResizeObserver !== 'undefined') { var observer = new ResizeObserver(function () { wraps.forEach(updateScrollCue); }); wraps.forEach(function (wrap) { observer.observe(wrap); }); }
}
`;
