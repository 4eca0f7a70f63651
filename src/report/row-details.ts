/**
 * The answer part of a judgement line as the case browser shows it: raw text, parsed plan, verdict,
 * findings in plain language, notes and usage; every text capped (`capped-text.ts`).
 */
import type { Findings } from '../judge/checks/findings.js';
import { asObject, capText, stringOrNull, TEXT_CAP, type Loose } from './capped-text.js';

/** Everything the browser shows about one answer and its judgement. */
export interface RowDetail {
  response: string;
  /** The parsed answer as data (pretty-printed by the page), or its capped JSON text when very large. */
  parsed: unknown;
  parseError: string | null;
  plannerError: string | null;
  correct: boolean | null;
  grade: number | null;
  errors: number[];
  reasoning: string;
  behavior: string | null;
  refused: boolean | null;
  judgeError: string | null;
  findings: string[];
  /** The findings as data, shown pretty-printed on demand by the page. */
  findingsData: Findings | null;
  notes: string[];
  usage: string | null;
}

/** Plain-language lines for the deterministic findings (D1–D10). */
export function findingLines(findings: Findings | null): string[] {
  if (!findings) return [];
  const lines: string[] = [];
  if (findings.schema && !findings.schema.valid)
    lines.push(`Schema: ${findings.schema.issues.join('; ') || 'invalid'}`);
  if (findings.hallucinatedTools?.names.length)
    lines.push(`Tools not in the tool list: ${findings.hallucinatedTools.names.join(', ')}`);
  if (findings.distractorUse)
    lines.push(
      `Distractor tools used: ${findings.distractorUse.count}${findings.distractorUse.names.length ? ` (${findings.distractorUse.names.join(', ')})` : ''}`,
    );
  if (findings.brokenTool)
    lines.push(
      `Broken tool: behaviour ${findings.brokenTool.behavior}${findings.brokenTool.calledTool ? `, calls ${findings.brokenTool.calledTool}` : ''}`,
    );
  if (findings.refusal?.refused)
    lines.push(
      `Refusal detected${findings.refusal.explicit ? ' (explicit)' : ''}${findings.refusal.evidence ? `: ${findings.refusal.evidence}` : ''}`,
    );
  if (findings.toolSet) {
    const { precision, recall, f1, missing, extra } = findings.toolSet;
    lines.push(
      `Tool set: precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)}, F1 ${f1.toFixed(2)}${missing.length ? `; missing ${missing.join(', ')}` : ''}${extra.length ? `; extra ${extra.join(', ')}` : ''}`,
    );
  }
  if (findings.chainOrder)
    lines.push(
      `Order: LCS ratio ${findings.chainOrder.lcsRatio.toFixed(2)}${findings.chainOrder.edgeF1 === null ? '' : `, edge F1 ${findings.chainOrder.edgeF1.toFixed(2)}`}`,
    );
  if (findings.arguments?.problems.length)
    lines.push(
      `Argument problems: ${findings.arguments.problems.map((problem) => `step ${problem.step} ${problem.tool}: ${problem.kind} ${problem.argument}`).join('; ')}`,
    );
  if (findings.nextK)
    lines.push(
      `Next ${findings.nextK.horizon} steps: tools ${findings.nextK.toolMatches.map((match) => (match ? '✓' : '✗')).join(' ')}`,
    );
  if (findings.planCost) {
    const { predictedSteps, referenceSteps, predictedCost, referenceCost } = findings.planCost;
    lines.push(
      `Plan length ${predictedSteps} vs reference ${referenceSteps}${predictedCost !== null ? `; cost ${predictedCost} vs ${referenceCost ?? '?'}` : ''}`,
    );
  }
  return lines.map((line) => capText(line, 2000));
}

function usageText(prediction: Loose | null, apb: Loose | null): string | null {
  const parts: string[] = [];
  const planner = asObject(prediction?.usage);
  const judge = asObject(apb?.usage);
  if (planner)
    parts.push(
      `planner ${planner.inputTokens ?? '?'} in / ${planner.outputTokens ?? '?'} out tokens`,
    );
  if (typeof prediction?.latency_ms === 'number')
    parts.push(`planner ${Math.round(prediction.latency_ms)} ms`);
  if (judge)
    parts.push(`judge ${judge.inputTokens ?? '?'} in / ${judge.outputTokens ?? '?'} out tokens`);
  return parts.length > 0 ? parts.join('; ') : null;
}

/** A JSON value kept as data when small, as capped JSON text when its JSON is over the cap; null when absent. */
export function cappedData(value: unknown, sourceLength = Infinity): unknown {
  if (value === undefined || value === null) return null;
  // A value parsed from a short text cannot be long: skip measuring it.
  if (sourceLength * 2 < TEXT_CAP) return value;
  const text = JSON.stringify(value);
  return text.length <= TEXT_CAP ? value : capText(text);
}

/** The answer part of a judgement line. */
export function rowDetailOf(line: Loose, findings: Findings | null): RowDetail {
  const apb = asObject(line.apb);
  const prediction = asObject(apb?.prediction);
  const judgement = asObject(line.judgement) ?? {};
  const plannerError = asObject(prediction?.error);
  const judgeError = asObject(apb?.judge_error);
  const errors = Array.isArray(judgement.error_list)
    ? judgement.error_list.map((flag) => (flag === 1 || flag === true ? 1 : 0))
    : [];
  return {
    response: capText(line.model_response),
    parsed: cappedData(
      prediction?.parsed,
      typeof line.model_response === 'string' ? line.model_response.length : Infinity,
    ),
    parseError: stringOrNull(prediction?.parse_error)
      ? capText(prediction!.parse_error, 4000)
      : null,
    plannerError: plannerError
      ? capText(
          `${plannerError.kind ?? 'error'}${plannerError.status ? ` ${plannerError.status}` : ''}: ${plannerError.message ?? ''}`,
          4000,
        )
      : null,
    correct: typeof judgement.is_correct === 'boolean' ? judgement.is_correct : null,
    grade: typeof judgement.grade === 'number' ? judgement.grade : null,
    errors,
    reasoning: capText(judgement.reasoning),
    behavior: stringOrNull(judgement.behavior),
    refused: typeof judgement.refused === 'boolean' ? judgement.refused : null,
    judgeError: judgeError
      ? capText(
          `${judgeError.reason ?? 'judge error'}: ${judgeError.message ?? ''}${judgeError.raw_text ? `\n${judgeError.raw_text}` : ''}`,
          8000,
        )
      : null,
    findings: findingLines(findings),
    findingsData: findings,
    notes: Array.isArray(apb?.notes) ? apb!.notes.map((note) => capText(note, 2000)) : [],
    usage: usageText(prediction, apb),
  };
}
