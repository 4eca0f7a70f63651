/**
 * Judgement lines → every judge's view of every judged answer (the line's own judge, and each panel
 * member under `apb.judges`), and from those views the `agreement` and `contradictions` sections of
 * `scores.json` and the rows `apb agreement` calibrates. Pure. Choices: docs/judge.md ("scores.json").
 */
import { agreementReport, type AgreementItem, type AgreementReport } from '../judge/agreement.js';
import { judgedRowFromLine, type JudgedRow, type JudgementLineKeys } from '../judge/calibration.js';
import {
  CONTRADICTION_CODES,
  countContradictions,
  type Contradiction,
  type ContradictionsSection,
} from '../judge/contradictions.js';
import { snapGrade, type ErrorFlags, type JudgeOutcome } from '../judge/verdict.js';
import { officialBoolean } from '../rundir/schemas/index.js';
import { behaviorField } from './result-rows.js';

type Loose = Record<string, unknown>;

/** One judge's reading of one judged answer. */
export interface JudgeView {
  /** `SPLIT/ID (TESTED_MODEL, repeat R)`: the judged answer, shared by every judge of it. */
  caseKey: string;
  split: string;
  judge: string;
  /** The line's own judgement (not a panel member's). */
  recorded: boolean;
  /** The line's judgement is a panel's aggregate (not an independent judge). */
  aggregate: boolean;
  row: JudgedRow;
  outcome: JudgeOutcome;
  /** Null when the verdict was not cross-checked (rules judges, judge errors, lines written before phase B). */
  contradictions: Contradiction[] | null;
}

/** The judge sections of `scores.json`; each is present only when the lines hold something for it. */
export interface JudgeSections {
  /** Present when at least two independent judges judged the lines (panel members, or several judges' lines). */
  agreement?: AgreementReport;
  /** Present when at least one verdict was cross-checked against the findings. */
  contradictions?: ContradictionsSection;
}

const asObject = (value: unknown): Loose | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null;
const CODES = new Set<string>(CONTRADICTION_CODES);

function contradictionsOf(value: unknown): Contradiction[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter((item): item is Contradiction => CODES.has(String(asObject(item)?.code)));
}

/** The outcome of recorded judgement keys: readable exactly when `judgedRowFromLine` gives a verdict with a grade in [0, 1]. */
function outcomeOf(row: JudgedRow, judgement: Loose): JudgeOutcome {
  const verdict = row.verdict;
  if (!verdict || !(verdict.grade >= 0 && verdict.grade <= 1))
    return {
      kind: 'unjudged',
      reason: 'judge-parse-failure',
      message: 'no readable verdict recorded',
    };
  const errors = [0, 1, 2, 3, 4, 5].map((index) => verdict.errors[index] ?? false) as ErrorFlags;
  const outcome: JudgeOutcome = {
    kind: 'verdict',
    correct: verdict.correct,
    grade: snapGrade(verdict.grade),
    errors,
    reasoning: '',
    notes: [],
  };
  const behavior = behaviorField(judgement);
  if (behavior) outcome.behavior = behavior;
  const refused = officialBoolean(judgement.refused);
  if (refused !== undefined) outcome.refused = refused;
  return outcome;
}

function viewOf(
  keys: JudgementLineKeys,
  caseKey: string,
  split: string,
  kind: { recorded: boolean; aggregate: boolean },
  contradictions: unknown,
): JudgeView {
  const row = judgedRowFromLine(keys);
  return {
    caseKey,
    split,
    judge: keys.judge_model,
    ...kind,
    row,
    outcome: outcomeOf(row, asObject(keys.judgement) ?? {}),
    contradictions: contradictionsOf(contradictions),
  };
}

/** Every judge's view of every line: the line's own (an aggregate when it holds panel members), then each member's. Lines without id, model or judge are skipped. */
export function judgeViews(lines: readonly Loose[]): JudgeView[] {
  const views: JudgeView[] = [];
  for (const line of lines) {
    const judgement = asObject(line.judgement);
    if (
      line.id === undefined ||
      typeof line.tested_model !== 'string' ||
      typeof line.judge_model !== 'string' ||
      !judgement
    )
      continue;
    const apb = asObject(line.apb);
    const repeat = asObject(apb?.prediction)?.repeat;
    const split = typeof line.split === 'string' ? line.split : '(unknown)';
    const caseKey = `${split}/${String(line.id)} (${line.tested_model}, repeat ${typeof repeat === 'number' ? repeat : 0})`;
    const members = Array.isArray(apb?.judges)
      ? (apb.judges as unknown[]).map(asObject).filter((member): member is Loose => member !== null)
      : [];
    const status = typeof apb?.status === 'string' ? { status: apb.status } : undefined;
    views.push(
      viewOf(
        {
          id: line.id as string | number,
          tested_model: line.tested_model,
          judge_model: line.judge_model,
          judgement: judgement as JudgementLineKeys['judgement'],
          ...(status ? { apb: status } : {}),
        },
        caseKey,
        split,
        { recorded: true, aggregate: members.length > 0 },
        apb?.contradictions,
      ),
    );
    for (const member of members) {
      const memberJudgement = asObject(member.judgement);
      if (typeof member.judge !== 'string' || !memberJudgement) continue;
      const keys: JudgementLineKeys = {
        id: line.id as string | number,
        tested_model: line.tested_model,
        judge_model: member.judge,
        judgement: memberJudgement as JudgementLineKeys['judgement'],
        apb: { status: String(member.status) },
      };
      views.push(
        viewOf(keys, caseKey, split, { recorded: false, aggregate: false }, member.contradictions),
      );
    }
  }
  return views;
}

/** Keeps the first view of each (answer, judge): a judge recorded twice for one answer (alone and in a panel) counts once. */
function firstPerJudge(views: readonly JudgeView[]): JudgeView[] {
  const seen = new Set<string>();
  return views.filter((view) => {
    const key = `${view.caseKey}\u0000${view.judge}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The rows `apb agreement` compares with human labels: every judge, panels' aggregates included, once per answer. */
export function calibrationRows(lines: readonly Loose[]): JudgedRow[] {
  return firstPerJudge(judgeViews(lines)).map((view) => view.row);
}

/** The `agreement` and `contradictions` sections of `scores.json`. */
export function judgeSections(lines: readonly Loose[]): JudgeSections {
  const all = judgeViews(lines);
  const views = firstPerJudge(all);
  const sections: JudgeSections = {};
  const independent = views.filter((view) => !view.aggregate);
  if (new Set(independent.map((view) => view.judge)).size >= 2) {
    const items: AgreementItem[] = independent.map((view) => ({
      caseKey: view.caseKey,
      split: view.split,
      judge: view.judge,
      outcome: view.outcome,
    }));
    sections.agreement = agreementReport(items);
  }
  const isChecked = (view: JudgeView): view is JudgeView & { contradictions: Contradiction[] } =>
    view.contradictions !== null;
  const checked = views.filter(isChecked);
  if (checked.length > 0) {
    const byJudge: ContradictionsSection['byJudge'] = {};
    for (const judge of [...new Set(checked.map((view) => view.judge))].sort())
      byJudge[judge] = countContradictions(checked.filter((view) => view.judge === judge));
    sections.contradictions = {
      ...countContradictions(firstPerJudge(all.filter((view) => view.recorded)).filter(isChecked)),
      byJudge,
    };
  }
  return sections;
}
