/**
 * Browser code of the case browser, part 2 (plain JS as text): the case view (query, tools, files,
 * trajectory, reference) and one or two answer columns side by side (raw answer, parsed plan,
 * verdict and reasoning, findings); a refined answer adds its refinement: the initial answer and its
 * verdict beside the revised one, with every round's critique. Everything is set with textContent;
 * media only as data:image URLs.
 */
export const CLIENT_CASE = String.raw`
function section(title, children, open) {
  var body = el('div', { className: 'section-body' }, children);
  return el('details', open === false ? { className: 'section' } : { className: 'section', open: 'open' }, [el('summary', { text: title }), body]);
}
function pretty(value) { return typeof value === 'string' ? value : JSON.stringify(value, null, 2); }
function pre(text, className) { return el('pre', { className: className || '' , text: text }); }
function field(label, value) { return value === null || value === undefined || value === '' ? null : el('p', {}, [el('strong', { text: label + ': ' }), String(value)]); }
var SAFE_IMAGE = /^data:image\/(png|jpeg|gif|webp|bmp);base64,[A-Za-z0-9+\/=]+$/;

function caseView(detail) {
  var parts = [];
  var facets = Object.keys(detail.facets).filter(function (key) { return detail.facets[key] !== null && detail.facets[key] !== ''; })
    .map(function (key) { return key + ': ' + detail.facets[key]; }).join(' · ');
  parts.push(el('p', { className: 'facets', text: facets }));
  parts.push(section('Query', [pre(detail.query, 'query-text')]));
  if (detail.system) parts.push(section('System prompt', [pre(detail.system)], false));
  if (detail.tools.length) {
    var distractors = new Set(detail.reference.extraneousTools);
    var list = el('ul', { className: 'tools' }, detail.tools.map(function (tool) {
      var marks = [];
      if (distractors.has(tool.name)) marks.push(el('span', { className: 'badge warn', text: 'distractor' }));
      if (tool.name === detail.reference.brokenTool) marks.push(el('span', { className: 'badge fail', text: 'broken' }));
      return el('li', {}, [el('code', { text: tool.name }), ' '].concat(marks, [
        tool.cost !== null ? ' cost ' + tool.cost + ' · ' : ' ', tool.description,
        tool.parameters ? el('details', {}, [el('summary', { text: 'parameters' }), pre(tool.parameters)]) : null,
      ]));
    }));
    parts.push(section('Tools (' + detail.tools.length + ')', [list], detail.tools.length <= 12));
  }
  if (detail.files.length) {
    parts.push(section('Files', detail.files.map(function (file) {
      var item = file.media === null ? null : mediaItem(file.media);
      var caption = el('figcaption', { text: file.path + (file.label ? ' (' + file.label + ')' : '') });
      if (item && item.dataUrl && SAFE_IMAGE.test(item.dataUrl)) {
        var image = el('img', { alt: file.path, className: 'case-image' });
        image.src = item.dataUrl;
        return el('figure', {}, [image, caption]);
      }
      return el('figure', {}, [caption, el('p', { className: 'note', text: file.note || (item && item.note) || 'not embedded' })]);
    })));
  }
  if (detail.trajectory.length) {
    parts.push(section('Executed trajectory (' + detail.trajectory.length + ' messages)', [el('ol', { className: 'trajectory' }, detail.trajectory.map(function (message) {
      return el('li', {}, [el('strong', { text: message.role }), message.text ? pre(message.text) : null].concat(message.calls.map(function (call) { return el('code', { className: 'call', text: call }); })));
    }))], false));
  }
  var ref = detail.reference;
  parts.push(section('Reference', [
    field('Unsolvable type', ref.unsolvableType), field('Broken tool', ref.brokenTool),
    ref.extraneousTools.length ? field('Distractor tools', ref.extraneousTools.join(', ')) : null,
    ref.plan ? el('div', {}, [el('h4', { text: 'Plan' }), pre(ref.plan)]) : null,
    ref.toolChain ? el('div', {}, [el('h4', { text: 'Tool chain' }), pre(ref.toolChain)]) : null,
    ref.nextSteps ? el('div', {}, [el('h4', { text: 'Next steps' }), pre(ref.nextSteps)]) : null,
    ref.remainingSteps ? el('details', {}, [el('summary', { text: 'Remaining steps' }), pre(ref.remainingSteps)]) : null,
    ref.replacementTool ? el('details', {}, [el('summary', { text: 'Replacement tool' }), pre(ref.replacementTool)]) : null,
  ], false));
  return parts;
}

/** The answer as JSON pretty-printed when the whole of it (or its one fenced block) is a JSON object or list; null otherwise. */
function prettyAnswer(text) {
  var body = String(text || '').trim();
  var fence = /^\x60\x60\x60(?:json)?\s*([\s\S]*?)\s*\x60\x60\x60$/i.exec(body);
  if (fence) body = fence[1];
  if (!/^[\[{]/.test(body)) return null;
  try { var value = JSON.parse(body); return value && typeof value === 'object' ? JSON.stringify(value, null, 2) : null; } catch (error) { return null; }
}
function argsText(value) { return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value); }
/** The answer's calls in order, in the reference's shape ({name, arguments}; name null for a text-only step). */
function answerCalls(parsed) {
  if (!parsed || typeof parsed !== 'object') return [];
  if (parsed.kind === 'plan' && Array.isArray(parsed.toolChain)) return parsed.toolChain.map(function (call) { return { name: call.name, arguments: argsText(call.arguments) }; });
  if (parsed.kind === 'steps' && Array.isArray(parsed.steps)) return parsed.steps.map(function (step) { return step.toolCall ? { name: step.toolCall.name, arguments: argsText(step.toolCall.arguments) } : { name: null, arguments: step.content || step.thought || '' }; });
  return [];
}
/** Reference and answer step by step, side by side: same tool and arguments, same tool, or a different step. */
function stepTable(reference, answer) {
  var count = Math.max(reference.length, answer.length);
  if (count === 0) return null;
  var cell = function (call) { return call ? el('td', {}, [call.name === null ? el('em', { text: 'text' }) : el('code', { text: call.name }), call.arguments ? el('div', { className: 'args', text: call.arguments }) : null]) : el('td', { className: 'none', text: '–' }); };
  var rows = [];
  for (var i = 0; i < count; i += 1) {
    var ref = reference[i], got = answer[i];
    var match = ref && got && ref.name === got.name ? (ref.arguments === got.arguments ? 'same' : 'tool') : 'differs';
    var mark = { same: '✓ same call', tool: '≈ same tool', differs: '✗ differs' }[match];
    rows.push(el('tr', { className: 'step ' + match }, [el('td', { className: 'num', text: String(i + 1) }), cell(ref), cell(got), el('td', { className: 'match', text: mark })]));
  }
  return el('div', { className: 'table-wrap' }, [el('div', { className: 'scroll' }, [el('table', { className: 'data steps' }, [
    el('thead', {}, [el('tr', {}, [el('th', { text: 'Step' }), el('th', { text: 'Reference' }), el('th', { text: 'This answer' }), el('th', { text: 'Match' })])]),
    el('tbody', {}, rows),
  ])])]);
}

function modelOf(row) {
  var x = data.rows.x ? data.rows.x[row] : -1;
  return data.models[data.rows.m[row]] + (x >= 0 ? ' · refined ' + data.methods[x] : '');
}
function verdictText(correct, grade) {
  return (correct === null ? 'no verdict' : correct ? 'correct' : 'incorrect') + (grade === null ? '' : ' · grade ' + grade.toFixed(1));
}
function refinementSection(detail) {
  var ref = detail.refinement;
  var before = el('div', { className: 'answer-column' }, [
    el('h4', { text: 'Before: initial answer' }),
    field('Verdict', verdictText(ref.initial.correct, ref.initial.grade) + (ref.initial.judgedIn === 'refine' ? ' (judged by apb refine)' : ' (from the source run)')),
    pre(ref.initial.response || '(empty)', 'response'),
  ]);
  var after = el('div', { className: 'answer-column' }, [
    el('h4', { text: 'After: refined answer' }),
    field('Verdict', detail.plannerError ? 'no refined answer (' + ref.status + ')' : verdictText(detail.correct, detail.grade)),
    pre(detail.response || '(no refined answer)', 'response'),
  ]);
  var rounds = ref.rounds.map(function (round) {
    return el('div', { className: 'refine-round' }, [
      el('h4', { text: 'Round ' + round.round + ': critique by ' + round.critic + (round.critiqueStatus !== 'ok' ? ' (' + round.critiqueStatus + ')' : '') }),
      round.critiqueError ? pre(round.critiqueError) : pre(round.critique || '(empty critique)', 'critique'),
      round.revision === null ? null : el('details', {}, [el('summary', { text: 'revision of round ' + round.round + (round.revisionStatus !== 'ok' ? ' (' + round.revisionStatus + ')' : '') }), round.revisionError ? pre(round.revisionError) : pre(round.revision || '(empty)')]),
    ]);
  });
  return section('Refinement · ' + ref.method + ' · ' + ref.status, [el('div', { className: 'answers side-by-side' }, [before, after])].concat(rounds));
}

function answerColumn(row, detail, reference) {
  var R = data.rows;
  var status = R.s[row];
  var errors = detail.errors.map(function (flag, k) { return flag ? 'E' + (k + 1) : null; }).filter(Boolean).join(' ');
  var verdict = [
    field('Outcome', STATUS[status]),
    field('Grade', detail.grade === null ? null : detail.grade.toFixed(1)),
    field('Errors', errors || 'none'),
    field('Behaviour', detail.behavior),
    field('Refused', detail.refused === null ? null : (detail.refused ? 'yes' : 'no')),
  ];
  return el('div', { className: 'answer-column', 'data-row': row }, [
    el('h3', {}, [modelOf(row) + ' ', el('span', { className: 'badge ' + STATUS_CLASS[status], text: STATUS[status] })]),
    el('p', { className: 'facets', text: 'judge ' + data.judges[R.j[row]] + ' · repeat ' + R.r[row] }),
    detail.refinement ? refinementSection(detail) : null,
    section('Verdict', verdict.concat([
      detail.reasoning ? el('div', {}, [el('h4', { text: 'Judge reasoning' }), pre(detail.reasoning, 'reasoning')]) : null,
      detail.judgeError ? el('div', {}, [el('h4', { text: 'Judge error' }), pre(detail.judgeError)]) : null,
    ])),
    (reference.length || answerCalls(detail.parsed).length) ? section('Step by step against the reference', [stepTable(reference, answerCalls(detail.parsed))]) : null,
    section('Planner answer', [
      detail.plannerError ? el('div', {}, [el('h4', { text: 'Planner error' }), pre(detail.plannerError)]) : null,
      detail.parseError ? el('div', {}, [el('h4', { text: 'Parse error' }), pre(detail.parseError)]) : null,
      prettyAnswer(detail.response) ? pre(prettyAnswer(detail.response), 'response pretty') : pre(detail.response || '(empty)', 'response'),
      prettyAnswer(detail.response) ? el('details', {}, [el('summary', { text: 'as received' }), pre(detail.response, 'response raw')]) : null,
    ]),
    detail.parsed !== null ? section('Parsed answer', [pre(pretty(detail.parsed), 'parsed')], false) : null,
    section('Deterministic findings', [
      detail.findings.length ? el('ul', {}, detail.findings.map(function (line) { return el('li', { text: line }); })) : el('p', { className: 'note', text: 'no findings recorded' }),
      detail.findingsData ? el('details', {}, [el('summary', { text: 'all findings (JSON)' }), pre(pretty(detail.findingsData))]) : null,
      detail.notes.length ? el('ul', { className: 'notes' }, detail.notes.map(function (note) { return el('li', { text: note }); })) : null,
      field('Usage', detail.usage),
    ], false),
  ]);
}

function rowLabel(row) {
  var R = data.rows;
  return modelOf(row) + (data.judges.length > 1 ? ' · ' + data.judges[R.j[row]] : '') + ' · repeat ' + R.r[row] + ' · ' + STATUS[R.s[row]];
}

var openToken = 0;
function openCase(row, compare) {
  var R = data.rows;
  if (row < 0 || row >= R.c.length) return;
  state.open = row;
  state.compare = compare === undefined ? state.compare : compare;
  var c = R.c[row];
  var token = ++openToken;
  var view = $('case-view');
  view.hidden = false;
  $('browser-panes').classList.add('has-case');
  $('case-title').textContent = data.splits[data.cases.split[c]] + ' · ' + data.cases.id[c];
  $('case-body').replaceChildren(el('p', { className: 'note', text: 'loading…' }));
  var siblings = byCase[c].filter(function (other) { return other !== row; });
  var select = $('compare-select');
  options(select, [['-1', siblings.length ? 'compare with… (' + siblings.length + ' other answers)' : 'no other answer to this case']].concat(siblings.map(function (other) { return [String(other), rowLabel(other)]; })), state.compare);
  select.disabled = siblings.length === 0;
  var wanted = [caseDetail(c), rowDetail(row)];
  if (state.compare >= 0 && siblings.indexOf(state.compare) >= 0) wanted.push(rowDetail(state.compare)); else state.compare = -1;
  Promise.all(wanted).then(function (details) {
    if (token !== openToken) return;
    var reference = details[0].referenceCalls || [];
    var columns = [answerColumn(row, details[1], reference)];
    if (details[2]) columns.push(answerColumn(state.compare, details[2], reference));
    $('case-body').replaceChildren.apply($('case-body'), caseView(details[0]).concat([el('div', { className: 'answers' + (columns.length > 1 ? ' side-by-side' : '') }, columns)]));
  }).catch(function (error) {
    $('case-body').replaceChildren(el('p', { className: 'note', text: 'Could not read this case: ' + error.message + (typeof DecompressionStream === 'undefined' ? ' (this browser lacks DecompressionStream)' : '') }));
  });
  renderList();
}
function closeCase() { state.open = -1; state.compare = -1; $('case-view').hidden = true; $('browser-panes').classList.remove('has-case'); renderList(); }
`;
