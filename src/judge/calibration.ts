/**
 * Judge calibration against human labels (paper Appendix D, Tables 7–9), pure. Rows join labels by
 * (id, tested_model); only rows with both a label and a judge verdict are compared, and the rest
 * are counted (unjudged, unmatched). "Correct" is the positive class. Definitions in docs/judge.md.
 */
import { labelKey, type HumanLabel } from './human-labels.js';

/** The part of a verdict that calibration compares. */
export interface CalibrationVerdict {
  correct: boolean;
  grade: number;
  errors: boolean[];
}

/** One judged answer: null verdict when the judge gave none (Unjudged). */
export interface JudgedRow {
  id: string;
  testedModel: string;
  judge: string;
  verdict: CalibrationVerdict | null;
}

/** Table 7: correctness agreement, precision, recall and F1 (correct = positive), grade MAE, error-type agreement. */
export interface JudgeAccuracy {
  n: number;
  confusion: {
    truePositive: number;
    falsePositive: number;
    falseNegative: number;
    trueNegative: number;
  };
  /** Percent of rows where judge and human correctness agree. */
  agreement: number | null;
  precision: number | null;
  recall: number | null;
  /** 0–1, as the paper prints it. */
  f1: number | null;
  gradeMae: number | null;
  /**
   * Err-Type: percent of rows whose six E flags judge and human set identically (exact match of
   * E1–E6). The definition consistent with the paper's Table 7 (docs/metrics.md, "Err-Type").
   */
  errorTypeAgreement: number | null;
  /**
   * Percent: the share of the six flags on which judge and human agree, averaged over rows
   * (per-flag; shown beside Err-Type).
   */
  flagAgreement: number | null;
}

/** Table 8: agreement and grade MAE on the human-correct rows, split by `correct_but_different`. */
export interface DiversityRobustness {
  correctButDifferent: { n: number; agreement: number | null; gradeMae: number | null };
  standardCorrect: { n: number; agreement: number | null; gradeMae: number | null };
  /** Human-correct rows whose label lacks `correct_but_different` (in neither group). */
  unlabelled: number;
}

/** Table 9: one tested model's human and judge correctness rate (%) and mean grade, with bias = judge − human. */
export interface ModelBias {
  testedModel: string;
  n: number;
  humanCr: number;
  judgeCr: number;
  crBias: number;
  humanGrade: number;
  judgeGrade: number;
  gradeBias: number;
}

/** Tables 7–9 for one judge, plus what could not be compared. */
export interface Calibration {
  judge: string;
  /** Judged rows with a label and a verdict. */
  compared: number;
  /** Rows with a label whose judge gave no verdict. */
  unjudged: number;
  /** Judged rows without a human label. */
  unmatched: number;
  /** Labels that no verdict of this judge was compared with. */
  labelsNotCompared: number;
  table7: JudgeAccuracy;
  table8: DiversityRobustness;
  table9: ModelBias[];
}

interface Pair {
  label: HumanLabel;
  verdict: CalibrationVerdict;
}

const mean = (values: number[]) =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const percent = (value: number | null) => (value === null ? null : value * 100);

/** The keys calibration reads from a judgement line, ours or the official harness's (which has no `apb`). */
export interface JudgementLineKeys {
  id: string | number;
  tested_model: string;
  judge_model: string;
  judgement: { is_correct: unknown; grade: unknown; error_list?: unknown };
  apb?: { status: string };
}

/** The row of a judgement line: a judge error, a non-boolean is_correct or a non-numeric grade is no verdict. */
export function judgedRowFromLine(line: JudgementLineKeys): JudgedRow {
  const { judgement } = line;
  const flags = Array.isArray(judgement.error_list) ? judgement.error_list : [];
  const readable =
    line.apb?.status !== 'judge_error' &&
    typeof judgement.is_correct === 'boolean' &&
    typeof judgement.grade === 'number';
  return {
    id: String(line.id),
    testedModel: line.tested_model,
    judge: line.judge_model,
    verdict: readable
      ? {
          correct: judgement.is_correct as boolean,
          grade: judgement.grade as number,
          errors: flags.map((flag) => flag === 1 || flag === true),
        }
      : null,
  };
}

function accuracy(pairs: Pair[]): JudgeAccuracy {
  const count = (human: boolean, judge: boolean) =>
    pairs.filter((pair) => pair.label.is_correct === human && pair.verdict.correct === judge)
      .length;
  const confusion = {
    truePositive: count(true, true),
    falsePositive: count(false, true),
    falseNegative: count(true, false),
    trueNegative: count(false, false),
  };
  const precision = ratio(confusion.truePositive, confusion.truePositive + confusion.falsePositive);
  const recall = ratio(confusion.truePositive, confusion.truePositive + confusion.falseNegative);
  const f1 =
    precision === null || recall === null || precision + recall === 0
      ? null
      : (2 * precision * recall) / (precision + recall);
  const flagShare = (pair: Pair) =>
    pair.label.error_list.filter(
      (flag, index) => (flag === 1) === (pair.verdict.errors[index] ?? false),
    ).length / 6;
  const exactFlags = (pair: Pair) => (flagShare(pair) === 1 ? 1 : 0);
  return {
    n: pairs.length,
    confusion,
    agreement: percent(ratio(confusion.truePositive + confusion.trueNegative, pairs.length)),
    precision: percent(precision),
    recall: percent(recall),
    f1,
    gradeMae: mean(pairs.map((pair) => Math.abs(pair.verdict.grade - pair.label.grade))),
    errorTypeAgreement: percent(mean(pairs.map(exactFlags))),
    flagAgreement: percent(mean(pairs.map(flagShare))),
  };
}

function robustness(pairs: Pair[]): DiversityRobustness {
  const group = (members: Pair[]) => ({
    n: members.length,
    agreement: percent(
      ratio(
        members.filter((pair) => pair.verdict.correct === pair.label.is_correct).length,
        members.length,
      ),
    ),
    gradeMae: mean(members.map((pair) => Math.abs(pair.verdict.grade - pair.label.grade))),
  });
  const humanCorrect = pairs.filter((pair) => pair.label.is_correct);
  return {
    correctButDifferent: group(
      humanCorrect.filter((pair) => pair.label.correct_but_different === true),
    ),
    standardCorrect: group(
      humanCorrect.filter((pair) => pair.label.correct_but_different === false),
    ),
    unlabelled: humanCorrect.filter((pair) => pair.label.correct_but_different === undefined)
      .length,
  };
}

function bias(pairs: Pair[]): ModelBias[] {
  const models = [...new Set(pairs.map((pair) => pair.label.tested_model))].sort();
  return models.map((testedModel) => {
    const rows = pairs.filter((pair) => pair.label.tested_model === testedModel);
    const humanCr = (rows.filter((pair) => pair.label.is_correct).length / rows.length) * 100;
    const judgeCr = (rows.filter((pair) => pair.verdict.correct).length / rows.length) * 100;
    const humanGrade = mean(rows.map((pair) => pair.label.grade))!;
    const judgeGrade = mean(rows.map((pair) => pair.verdict.grade))!;
    return {
      testedModel,
      n: rows.length,
      humanCr,
      judgeCr,
      crBias: judgeCr - humanCr,
      humanGrade,
      judgeGrade,
      gradeBias: judgeGrade - humanGrade,
    };
  });
}

/** Calibrates every judge found in the rows against the labels; one result per judge, sorted by judge. */
export function calibrate(
  rows: readonly JudgedRow[],
  labels: readonly HumanLabel[],
): Calibration[] {
  const byKey = new Map(labels.map((label) => [labelKey(label.id, label.tested_model), label]));
  const judges = [...new Set(rows.map((row) => row.judge))].sort();
  return judges.map((judge) => {
    const pairs: Pair[] = [];
    let unjudged = 0;
    let unmatched = 0;
    const comparedKeys = new Set<string>();
    for (const row of rows) {
      if (row.judge !== judge) continue;
      const key = labelKey(row.id, row.testedModel);
      const label = byKey.get(key);
      if (!label) unmatched += 1;
      else if (!row.verdict) unjudged += 1;
      else {
        pairs.push({ label, verdict: row.verdict });
        comparedKeys.add(key);
      }
    }
    return {
      judge,
      compared: pairs.length,
      unjudged,
      unmatched,
      labelsNotCompared: labels.length - comparedKeys.size,
      table7: accuracy(pairs),
      table8: robustness(pairs),
      table9: bias(pairs),
    };
  });
}

/** Every judge's Tables 7–9, and what could not be joined. */
export interface CalibrationSummary {
  labels: number;
  /** Labels that match no judged row of any judge (by id and tested model). */
  unmatchedLabels: number;
  calibrations: Calibration[];
}

/** Calibrates every judge of the rows against the labels and counts the labels no row matches. */
export function calibrationSummary(
  rows: readonly JudgedRow[],
  labels: readonly HumanLabel[],
): CalibrationSummary {
  const rowKeys = new Set(rows.map((row) => labelKey(row.id, row.testedModel)));
  return {
    labels: labels.length,
    unmatchedLabels: labels.filter((label) => !rowKeys.has(labelKey(label.id, label.tested_model)))
      .length,
    calibrations: calibrate(rows, labels),
  };
}
