/**
 * One answer column: outcome, verdict and reasoning, the step-by-step comparison, the raw and
 * parsed answer, findings; a refined answer adds its initial answer beside the refined one with
 * every round's critique.
 */
import { el, field, pre, pretty, section } from './dom.js';
import { modelOf } from './labels.js';
import type { AnswerDetail, CaseDetail } from './page-data.js';
import { answerCalls, prettyAnswer, stepTable } from './step-table.js';
import { data, STATUS, STATUS_CLASS } from './store.js';

function verdictText(correct: boolean | null, grade: number | null): string {
  const verdict = correct === null ? 'no verdict' : correct ? 'correct' : 'incorrect';
  return verdict + (grade === null ? '' : ` · grade ${grade.toFixed(1)}`);
}

function refinementSection(detail: AnswerDetail): HTMLElement {
  const ref = detail.refinement!;
  const source =
    ref.initial.judgedIn === 'refine' ? ' (judged by apb refine)' : ' (from the source run)';
  const before = el('div', { className: 'answer-column' }, [
    el('h4', { text: 'Before: initial answer' }),
    field('Verdict', verdictText(ref.initial.correct, ref.initial.grade) + source),
    pre(ref.initial.response || '(empty)', 'response'),
  ]);
  const after = el('div', { className: 'answer-column' }, [
    el('h4', { text: 'After: refined answer' }),
    field(
      'Verdict',
      detail.plannerError
        ? `no refined answer (${ref.status})`
        : verdictText(detail.correct, detail.grade),
    ),
    pre(detail.response || '(no refined answer)', 'response'),
  ]);
  const rounds = ref.rounds.map((round) => {
    const critiqueNote = round.critiqueStatus !== 'ok' ? ` (${round.critiqueStatus})` : '';
    const revisionNote = round.revisionStatus !== 'ok' ? ` (${round.revisionStatus})` : '';
    return el('div', { className: 'refine-round' }, [
      el('h4', { text: `Round ${round.round}: critique by ${round.critic}${critiqueNote}` }),
      round.critiqueError
        ? pre(round.critiqueError)
        : pre(round.critique || '(empty critique)', 'critique'),
      round.revision === null
        ? null
        : el('details', {}, [
            el('summary', { text: `revision of round ${round.round}${revisionNote}` }),
            round.revisionError ? pre(round.revisionError) : pre(round.revision || '(empty)'),
          ]),
    ]);
  });
  const sides = el('div', { className: 'answers side-by-side' }, [before, after]);
  return section(`Refinement · ${ref.method} · ${ref.status}`, [sides, ...rounds]);
}

function verdictSection(row: number, detail: AnswerDetail): HTMLElement {
  const errors = detail.errors
    .map((flag, k) => (flag ? `E${k + 1}` : null))
    .filter(Boolean)
    .join(' ');
  return section('Verdict', [
    field('Outcome', STATUS[data.rows.s[row]!]),
    field('Grade', detail.grade === null ? null : detail.grade.toFixed(1)),
    field('Errors', errors || 'none'),
    field('Behaviour', detail.behavior),
    field('Refused', detail.refused === null ? null : detail.refused ? 'yes' : 'no'),
    detail.reasoning
      ? el('div', {}, [el('h4', { text: 'Judge reasoning' }), pre(detail.reasoning, 'reasoning')])
      : null,
    detail.judgeError
      ? el('div', {}, [el('h4', { text: 'Judge error' }), pre(detail.judgeError)])
      : null,
  ]);
}

function plannerSection(detail: AnswerDetail): HTMLElement {
  const prettyText = prettyAnswer(detail.response);
  return section('Planner answer', [
    detail.plannerError
      ? el('div', {}, [el('h4', { text: 'Planner error' }), pre(detail.plannerError)])
      : null,
    detail.parseError
      ? el('div', {}, [el('h4', { text: 'Parse error' }), pre(detail.parseError)])
      : null,
    prettyText ? pre(prettyText, 'response pretty') : pre(detail.response || '(empty)', 'response'),
    prettyText
      ? el('details', {}, [
          el('summary', { text: 'as received' }),
          pre(detail.response, 'response raw'),
        ])
      : null,
  ]);
}

function findingsSection(detail: AnswerDetail): HTMLElement {
  const notes = detail.notes.map((note) => el('li', { text: note }));
  return section(
    'Deterministic findings',
    [
      detail.findings.length
        ? el(
            'ul',
            {},
            detail.findings.map((line) => el('li', { text: line })),
          )
        : el('p', { className: 'note', text: 'no findings recorded' }),
      detail.findingsData
        ? el('details', {}, [
            el('summary', { text: 'all findings (JSON)' }),
            pre(pretty(detail.findingsData)),
          ])
        : null,
      detail.notes.length ? el('ul', { className: 'notes' }, notes) : null,
      field('Usage', detail.usage),
    ],
    false,
  );
}

/** The column of answer `row`, compared step by step with the case's reference calls. */
export function answerColumn(
  row: number,
  detail: AnswerDetail,
  reference: CaseDetail['referenceCalls'],
): HTMLElement {
  const R = data.rows;
  const status = R.s[row]!;
  const calls = answerCalls(detail.parsed);
  const badge = el('span', { className: `badge ${STATUS_CLASS[status]}`, text: STATUS[status] });
  return el('div', { className: 'answer-column', 'data-row': row }, [
    el('h3', {}, [`${modelOf(row)} `, badge]),
    el('p', { className: 'facets', text: `judge ${data.judges[R.j[row]!]} · repeat ${R.r[row]}` }),
    detail.refinement ? refinementSection(detail) : null,
    verdictSection(row, detail),
    reference.length || calls.length
      ? section('Step by step against the reference', [stepTable(reference, calls)])
      : null,
    plannerSection(detail),
    detail.parsed !== null
      ? section('Parsed answer', [pre(pretty(detail.parsed), 'parsed')], false)
      : null,
    findingsSection(detail),
  ]);
}
