/**
 * The judge diagnostics as plain section views (title, text, tables of formatted cells), pure:
 * agreement and contradictions of `scores.json` for the reports, calibration against human labels
 * for `apb agreement`. Markdown and HTML render the same views. Definitions: docs/judge.md.
 */
import type { AgreementReport, AgreementSummary, Disagreement } from '../judge/agreement.js';
import type { Calibration, CalibrationSummary } from '../judge/calibration.js';
import type { ContradictionCount, ContradictionsSection } from '../judge/contradictions.js';
import { fixed, signed } from './numbers.js';

/** A section of judge diagnostics, ready for a renderer. */
export interface SectionView {
  title: string;
  paragraphs: string[];
  tables: { header: string[]; rows: string[][] }[];
}

const percent = (value: number | null | undefined) =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : `${fixed(value, 1)}%`;

function scopes<T>(overall: T, bySplit: Record<string, T>): [string, T][] {
  return [...Object.entries(bySplit).sort(([a], [b]) => a.localeCompare(b)), ['overall', overall]];
}

function vote(entry: Disagreement['votes'][number]): string {
  const extra = [
    entry.behavior,
    entry.refused === undefined ? undefined : entry.refused ? 'refused' : 'not refused',
  ]
    .filter(Boolean)
    .join(', ');
  return `${entry.judge}: ${entry.correct ? 'correct' : 'incorrect'} ${entry.grade}${extra ? ` (${extra})` : ''}`;
}

/** Judge agreement: α per split and overall, κ per judge pair, and the disagreeing cases (at most `limit`). */
export function agreementView(agreement: AgreementReport, limit = 20): SectionView {
  const all = scopes<AgreementSummary>(agreement.overall, agreement.bySplit);
  const shown = agreement.disagreements.slice(0, limit);
  const more = agreement.disagreements.length - shown.length;
  return {
    title: 'Judge agreement',
    paragraphs: [
      `Judges: ${agreement.judges.join(', ')}. Krippendorff's α over all judges (nominal on correctness, interval on grade) and Cohen's κ per pair on correctness; a judge error is a missing value; – is undefined (nothing to compare, or no variation).`,
      `Disagreements: ${agreement.disagreements.length} case(s) where the judges' correctness, behaviour or refusal differ${more > 0 ? `; the first ${shown.length} are listed, all are in scores.json → agreement.disagreements` : ''}.`,
    ],
    tables: [
      {
        header: ['Split', 'Cases', 'α correctness', 'α grade'],
        rows: all.map(([scope, summary]) => [
          scope,
          String(summary.cases),
          fixed(summary.alphaCorrect.alpha, 3),
          fixed(summary.alphaGrade.alpha, 3),
        ]),
      },
      {
        header: ['Split', 'Judge A', 'Judge B', 'Both judged', 'Agreement', 'κ'],
        rows: all.flatMap(([scope, summary]) =>
          summary.pairs.map((pair) => [
            scope,
            pair.judgeA,
            pair.judgeB,
            String(pair.n),
            percent(pair.percentAgreement),
            fixed(pair.kappa, 3),
          ]),
        ),
      },
      ...(shown.length > 0
        ? [
            {
              header: ['Case', 'Differs on', 'Votes', 'Grade spread'],
              rows: shown.map((entry) => [
                entry.caseKey,
                entry.fields.join(', '),
                entry.votes.map(vote).join('; '),
                fixed(entry.gradeSpread, 1),
              ]),
            },
          ]
        : []),
    ],
  };
}

function codes(count: ContradictionCount): string {
  const entries = Object.entries(count.byCode).sort(
    ([a, x], [b, y]) => (y ?? 0) - (x ?? 0) || a.localeCompare(b),
  );
  return entries.length === 0 ? '–' : entries.map(([code, n]) => `${code} ${n}`).join(', ');
}

const countRow = (scope: string, count: ContradictionCount) => [
  scope,
  String(count.checked),
  String(count.flagged),
  percent(count.checked === 0 ? null : (count.flagged / count.checked) * 100),
  codes(count),
];

/** LLM verdicts that contradict the deterministic checks: per split and overall, then per judge. */
export function contradictionsView(section: ContradictionsSection): SectionView {
  const judges = Object.keys(section.byJudge);
  return {
    title: 'Judge verdicts vs deterministic checks',
    paragraphs: [
      "LLM verdicts that contradict what the checks established, flagged for review (the verdict is kept). Recorded verdicts first, then each LLM judge's own.",
    ],
    tables: [
      {
        header: ['Split', 'Verdicts checked', 'Contradicting', 'Share', 'By code'],
        rows: scopes(section.overall, section.bySplit).map(([scope, count]) =>
          countRow(scope, count),
        ),
      },
      ...(judges.length > 1
        ? [
            {
              header: ['Judge', 'Verdicts checked', 'Contradicting', 'Share', 'By code'],
              rows: judges.map((judge) => countRow(judge, section.byJudge[judge]!.overall)),
            },
          ]
        : []),
    ],
  };
}

/** Both judge sections of a `scores.json`, each only when present. */
export function judgeSectionViews(scores: {
  agreement?: AgreementReport;
  contradictions?: ContradictionsSection;
}): SectionView[] {
  return [
    ...(scores.agreement ? [agreementView(scores.agreement)] : []),
    ...(scores.contradictions ? [contradictionsView(scores.contradictions)] : []),
  ];
}

function table9(calibration: Calibration): SectionView['tables'][number] {
  return {
    header: [
      'Test model',
      'n',
      'Human CR',
      'Judge CR',
      'CR bias',
      'Human grade',
      'Judge grade',
      'Grade bias',
    ],
    rows: calibration.table9.map((row) => [
      row.testedModel,
      String(row.n),
      percent(row.humanCr),
      percent(row.judgeCr),
      signed(row.crBias, 1),
      fixed(row.humanGrade, 3),
      fixed(row.judgeGrade, 3),
      signed(row.gradeBias, 3),
    ]),
  };
}

/**
 * Judges vs human labels as the paper prints it (Appendix D): coverage, Table 7, Table 8, and
 * Table 9 per judge.
 */
export function calibrationViews(summary: CalibrationSummary): SectionView[] {
  const { calibrations } = summary;
  const coverage = coverageView(summary);
  if (calibrations.length === 0) return [coverage];
  return [
    coverage,
    table7View(calibrations),
    table8View(calibrations),
    ...calibrations.map((calibration) => ({
      title: `Table 9: judge ${calibration.judge} vs human, per tested model`,
      paragraphs: [],
      tables: [table9(calibration)],
    })),
  ];
}

/** How many labels each judge was compared on, and what was left out. */
function coverageView(summary: CalibrationSummary): SectionView {
  const { calibrations } = summary;
  return {
    title: 'Judge vs human labels',
    paragraphs: [
      `Labels: ${summary.labels}; matching no judged answer (id, tested model): ` +
        `${summary.unmatchedLabels}. Correct is the positive class; – is undefined.`,
      ...(calibrations.length === 0 ? ['No judged answer in the run.'] : []),
    ],
    tables: [
      {
        header: [
          'Judge',
          'Compared',
          'Labelled but unjudged',
          'Judged without a label',
          'Labels not compared',
        ],
        rows: calibrations.map((entry) => [
          entry.judge,
          String(entry.compared),
          String(entry.unjudged),
          String(entry.unmatched),
          String(entry.labelsNotCompared),
        ]),
      },
    ],
  };
}

/** Table 7: agreement, precision, recall, F1, grade MAE and error-type agreement per judge. */
function table7View(calibrations: CalibrationSummary['calibrations']): SectionView {
  return {
    title: 'Table 7: judge vs human',
    paragraphs: [
      'Err-Type = rows whose six E flags judge and human set identically (the definition ' +
        "consistent with the paper's Table 7); per-flag = the share of single flags that agree, " +
        'which sparse flags inflate.',
    ],
    tables: [
      {
        header: [
          'Judge',
          'n',
          'Agreement',
          'Precision',
          'Recall',
          'F1',
          'Grade MAE',
          'Err-Type',
          'per-flag',
        ],
        rows: calibrations.map(({ judge, table7: t }) => [
          judge,
          String(t.n),
          percent(t.agreement),
          percent(t.precision),
          percent(t.recall),
          fixed(t.f1, 3),
          fixed(t.gradeMae, 3),
          percent(t.errorTypeAgreement),
          percent(t.flagAgreement),
        ]),
      },
    ],
  };
}

/** Table 8: correct-but-different answers against standard correct ones, per judge. */
function table8View(calibrations: CalibrationSummary['calibrations']): SectionView {
  return {
    title: 'Table 8: correct but different vs standard correct',
    paragraphs: [],
    tables: [
      {
        header: [
          'Judge',
          'Correct but different: n',
          'Agree',
          'Grade MAE',
          'Standard correct: n',
          'Agree',
          'Grade MAE',
          'Correct, unlabelled',
        ],
        rows: calibrations.map(({ judge, table8: t }) => [
          judge,
          String(t.correctButDifferent.n),
          percent(t.correctButDifferent.agreement),
          fixed(t.correctButDifferent.gradeMae, 3),
          String(t.standardCorrect.n),
          percent(t.standardCorrect.agreement),
          fixed(t.standardCorrect.gradeMae, 3),
          String(t.unlabelled),
        ]),
      },
    ],
  };
}
