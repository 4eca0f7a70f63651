/**
 * Agreement between judges, pure: Cohen's κ per judge pair on correctness, Krippendorff's α over
 * all judges (nominal for correctness, interval for grade), per split and overall, and the cases
 * where judges disagree. Unjudged outcomes are missing values. Definitions in docs/judge.md.
 */
import type { BrokenBehavior, JudgeOutcome } from './verdict.js';

/** One judge's outcome on one case; `caseKey` identifies the judged answer (e.g. id, tested model and repeat). */
export interface AgreementItem {
  caseKey: string;
  split: string;
  judge: string;
  outcome: JudgeOutcome;
}

/** Cohen's κ with its parts; `kappa` is null when undefined (no pair, or chance agreement is 1). */
export interface KappaResult {
  kappa: number | null;
  observed: number | null;
  expected: number | null;
  n: number;
}

/** Krippendorff's α with its parts; `alpha` is null when undefined (no pairable value, or no variation at all). */
export interface AlphaResult {
  alpha: number | null;
  /** Values in units with at least two values. */
  pairable: number;
  units: number;
}

type Label = string | number | boolean;

/** Cohen's κ of two raters over the same items, nominal categories. */
export function cohenKappa(a: readonly Label[], b: readonly Label[]): KappaResult {
  if (a.length !== b.length)
    throw new RangeError(`cohenKappa needs paired labels (${a.length} vs ${b.length})`);
  const n = a.length;
  if (n === 0) return { kappa: null, observed: null, expected: null, n };
  const observed = a.filter((label, index) => label === b[index]).length / n;
  const categories = new Set<Label>([...a, ...b]);
  let expected = 0;
  for (const category of categories)
    expected +=
      (a.filter((label) => label === category).length / n) *
      (b.filter((label) => label === category).length / n);
  return {
    kappa: expected === 1 ? null : (observed - expected) / (1 - expected),
    observed,
    expected,
    n,
  };
}

/** Krippendorff's α over units (one array of values per unit, null = missing), nominal or interval. */
export function krippendorffAlpha(
  units: readonly (readonly (Label | null)[])[],
  level: 'nominal' | 'interval',
): AlphaResult {
  const delta = (x: Label, y: Label) =>
    level === 'nominal' ? (x === y ? 0 : 1) : (Number(x) - Number(y)) ** 2;
  const counts = new Map<Label, number>();
  let pairable = 0;
  let disagreement = 0;
  for (const unit of units) {
    const values = unit.filter((value): value is Label => value !== null);
    const m = values.length;
    if (m < 2) continue;
    pairable += m;
    for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
    let sum = 0;
    for (let i = 0; i < m; i += 1)
      for (let j = 0; j < m; j += 1) if (i !== j) sum += delta(values[i]!, values[j]!);
    disagreement += sum / (m - 1);
  }
  if (pairable < 2) return { alpha: null, pairable, units: units.length };
  const observed = disagreement / pairable;
  let expectedSum = 0;
  for (const [x, nx] of counts) for (const [y, ny] of counts) expectedSum += nx * ny * delta(x, y);
  const expected = expectedSum / (pairable * (pairable - 1));
  return { alpha: expected === 0 ? null : 1 - observed / expected, pairable, units: units.length };
}

/** κ and raw agreement on correctness of one judge pair, over the cases both judged. */
export interface PairAgreement {
  judgeA: string;
  judgeB: string;
  n: number;
  percentAgreement: number | null;
  kappa: number | null;
}

/** Agreement figures of one group of cases (a split, or all). */
export interface AgreementSummary {
  cases: number;
  pairs: PairAgreement[];
  alphaCorrect: AlphaResult;
  alphaGrade: AlphaResult;
}

/** A case on which judges gave different correctness, behaviour or refusal verdicts. */
export interface Disagreement {
  caseKey: string;
  split: string;
  fields: ('correct' | 'behavior' | 'refused')[];
  votes: {
    judge: string;
    correct: boolean;
    grade: number;
    behavior?: BrokenBehavior;
    refused?: boolean;
  }[];
  unjudged: string[];
  gradeSpread: number;
}

/** The full agreement report over a set of judged cases. */
export interface AgreementReport {
  judges: string[];
  overall: AgreementSummary;
  bySplit: Record<string, AgreementSummary>;
  disagreements: Disagreement[];
}

type CaseVotes = { split: string; byJudge: Map<string, JudgeOutcome> };

function summarise(cases: CaseVotes[], judges: string[]): AgreementSummary {
  const verdictOf = (votes: CaseVotes, judge: string) => {
    const outcome = votes.byJudge.get(judge);
    return outcome?.kind === 'verdict' ? outcome : null;
  };
  const pairs: PairAgreement[] = [];
  for (let i = 0; i < judges.length; i += 1) {
    for (let j = i + 1; j < judges.length; j += 1) {
      const both = cases.flatMap((votes) => {
        const a = verdictOf(votes, judges[i]!);
        const b = verdictOf(votes, judges[j]!);
        return a && b ? [{ a: a.correct, b: b.correct }] : [];
      });
      const kappa = cohenKappa(
        both.map((pair) => pair.a),
        both.map((pair) => pair.b),
      );
      pairs.push({
        judgeA: judges[i]!,
        judgeB: judges[j]!,
        n: kappa.n,
        percentAgreement: kappa.observed === null ? null : kappa.observed * 100,
        kappa: kappa.kappa,
      });
    }
  }
  const column = (pick: (verdict: NonNullable<ReturnType<typeof verdictOf>>) => Label) =>
    cases.map((votes) =>
      judges.map((judge) => {
        const verdict = verdictOf(votes, judge);
        return verdict ? pick(verdict) : null;
      }),
    );
  return {
    cases: cases.length,
    pairs,
    alphaCorrect: krippendorffAlpha(
      column((verdict) => verdict.correct),
      'nominal',
    ),
    alphaGrade: krippendorffAlpha(
      column((verdict) => verdict.grade),
      'interval',
    ),
  };
}

function disagreementOf(caseKey: string, votes: CaseVotes): Disagreement | null {
  const entries = [...votes.byJudge.entries()];
  const verdicts = entries.flatMap(([judge, outcome]) =>
    outcome.kind === 'verdict' ? [{ judge, verdict: outcome }] : [],
  );
  if (verdicts.length < 2) return null;
  // A field a judge does not state (a graded rubric says nothing of behaviour or refusal) is no disagreement.
  const differs = (pick: (entry: (typeof verdicts)[number]) => unknown) =>
    new Set(verdicts.map(pick).filter((value) => value !== undefined)).size > 1;
  const fields: Disagreement['fields'] = [];
  if (differs((entry) => entry.verdict.correct)) fields.push('correct');
  if (differs((entry) => entry.verdict.behavior)) fields.push('behavior');
  if (differs((entry) => entry.verdict.refused)) fields.push('refused');
  if (fields.length === 0) return null;
  const grades = verdicts.map((entry) => entry.verdict.grade);
  return {
    caseKey,
    split: votes.split,
    fields,
    votes: verdicts.map(({ judge, verdict }) => ({
      judge,
      correct: verdict.correct,
      grade: verdict.grade,
      ...(verdict.behavior ? { behavior: verdict.behavior } : {}),
      ...(verdict.refused === undefined ? {} : { refused: verdict.refused }),
    })),
    unjudged: entries.filter(([, outcome]) => outcome.kind === 'unjudged').map(([judge]) => judge),
    gradeSpread: Math.max(...grades) - Math.min(...grades),
  };
}

/** Agreement per split and overall, with every disagreement; a (case, judge) given twice is a bug in the caller. */
export function agreementReport(items: readonly AgreementItem[]): AgreementReport {
  const cases = new Map<string, CaseVotes>();
  for (const item of items) {
    const votes = cases.get(item.caseKey) ?? { split: item.split, byJudge: new Map() };
    if (votes.split !== item.split)
      throw new RangeError(
        `case ${item.caseKey} appears in splits ${votes.split} and ${item.split}`,
      );
    if (votes.byJudge.has(item.judge))
      throw new RangeError(`case ${item.caseKey} has two outcomes from judge ${item.judge}`);
    votes.byJudge.set(item.judge, item.outcome);
    cases.set(item.caseKey, votes);
  }
  const judges = [...new Set(items.map((item) => item.judge))].sort();
  const splits = [...new Set(items.map((item) => item.split))].sort();
  const all = [...cases.values()];
  return {
    judges,
    overall: summarise(all, judges),
    bySplit: Object.fromEntries(
      splits.map((split) => [
        split,
        summarise(
          all.filter((votes) => votes.split === split),
          judges,
        ),
      ]),
    ),
    disagreements: [...cases.entries()].flatMap(([key, votes]) => disagreementOf(key, votes) ?? []),
  };
}
