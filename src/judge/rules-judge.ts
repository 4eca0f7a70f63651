/**
 * The rules judge: a deterministic, STRUCTURAL mapping from the checks' `Findings` (and the case's
 * split) to a `Verdict`. It compares tool names, order, data flow, argument schemas and values,
 * state changes and refusals with the reference and with what the planner was shown; it does not
 * read meaning, so it is not the paper's LLM judge and its numbers are not the paper's. The mapping
 * table, its fidelity on a labelled set and its blind spots: docs/rules-judge.md.
 */
import type { SplitName } from '../dataset/case.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Findings } from './checks/findings.js';
import type { Judge } from './judge.js';
import { holisticGrade, stepWiseSeverityGrade } from './rules-grades.js';
import { holisticFlags, stepWiseFlags, unsolvableOutcome } from './rules-flags.js';
import { FlagSet } from './rules-flag-set.js';
import type { Verdict } from './verdict.js';

/** Version of the mapping below; bump it whenever a rule changes, so stored verdicts stay traceable. */
export const RULES_VERSION = '2';

/** The `promptVersion` every rules verdict is recorded under. */
export const RULES_PROMPT_VERSION = `rules@${RULES_VERSION}`;

function verdict(
  correct: boolean,
  grade: Verdict['grade'],
  flags: FlagSet,
  refused: boolean,
  extra: Partial<Verdict> = {},
): Verdict {
  const summary =
    flags.reasons.length > 0 ? flags.reasons.join('; ') : 'no structural problem found';
  return {
    kind: 'verdict',
    correct,
    grade,
    errors: flags.errors,
    reasoning: `rules judge (structural): ${summary}`,
    refused,
    notes: [],
    ...extra,
  };
}

/** Holistic planning, tool-extraneous and efficiency-aware splits (paper C.1.2, approximated structurally). */
export function holisticVerdict(_split: SplitName, findings: Findings): Verdict {
  const flags = new FlagSet();
  const severity = holisticFlags(findings, flags);
  const correct = !flags.any();
  const grade = correct ? 1 : holisticGrade(severity);
  return verdict(
    correct,
    grade,
    flags,
    findings.refusal.refused,
    findings.planAlignment
      ? {}
      : { notes: ['no reference chain: only reference-free rules applied'] },
  );
}

/** Step-wise planning and step-wise tool-extraneous (paper C.1.1: zero tolerance). */
export function stepWiseVerdict(findings: Findings): Verdict {
  const flags = new FlagSet();
  const severity = stepWiseFlags(findings, flags);
  const positions = findings.nextK?.positions ?? [];
  const correct =
    !flags.any() &&
    positions.length > 0 &&
    positions.every((kind) => kind === 'match' || kind === 'accepted');
  return verdict(
    correct,
    correct ? 1 : stepWiseSeverityGrade(severity),
    flags,
    findings.refusal.refused,
  );
}

/** Tool-broken (paper C.4): the behaviour decides; replace and alter are correct, each only with sound values (D4). */
export function toolBrokenVerdict(findings: Findings): Verdict {
  const flags = new FlagSet();
  const behavior = findings.brokenTool?.behavior ?? 'other';
  if (findings.hallucinatedTools.names.length > 0)
    flags.raise(6, `calls unlisted tool(s) ${findings.hallucinatedTools.names.join(', ')}`);
  const correct = behavior === 'replace' || behavior === 'alter';
  const called = findings.brokenTool?.calledTool;
  const note = findings.brokenTool?.note;
  flags.reasons.unshift(
    `behaviour ${behavior}${called ? ` (${called})` : ''}${note ? `: ${note}` : ''}`,
  );
  return verdict(correct, correct ? 1 : 0, flags, findings.refusal.refused, { behavior });
}

/** Unsolvable (paper C.6): correct exactly when the answer refuses (explicitly, or in reasoned prose). */
export function unsolvableVerdict(findings: Findings): Verdict {
  const flags = new FlagSet();
  if (findings.hallucinatedTools.names.length > 0)
    flags.raise(6, `calls unlisted tool(s) ${findings.hallucinatedTools.names.join(', ')}`);
  const { passes, why } = unsolvableOutcome(findings);
  flags.reasons.unshift(why);
  return verdict(passes, passes ? 1 : 0, flags, findings.refusal.refused);
}

/**
 * The rules verdict of one answer. An unreadable answer is incorrect, grade 0, never a refusal,
 * unless it is a reasoned prose refusal (D5).
 */
export function rulesVerdict(split: SplitName, parsed: ParsedAnswer, findings: Findings): Verdict {
  if (parsed.kind === 'parse_error' && !findings.refusal.prose) {
    const flags = new FlagSet();
    flags.reasons.push(
      `answer could not be read (${parsed.message}); reported as a parse error, not judged`,
    );
    return verdict(
      false,
      0,
      flags,
      false,
      split === 'step_wise_tool_broken' ? { behavior: 'other' } : {},
    );
  }
  switch (split) {
    case 'holistic_planning':
    case 'holistic_tool_extraneous':
    case 'holistic_efficiency':
      return holisticVerdict(split, findings);
    case 'holistic_unsolvable':
      return unsolvableVerdict(findings);
    case 'step_wise_planning':
    case 'step_wise_tool_extraneous':
      return stepWiseVerdict(findings);
    case 'step_wise_tool_broken':
      return toolBrokenVerdict(
        parsed.kind === 'parse_error'
          ? { ...findings, brokenTool: { behavior: 'refuse', calledTool: null } }
          : findings,
      );
  }
}

/** The structural rules judge (`rules`); it trusts the findings it is given and never calls a model. */
export const rulesJudge: Judge = {
  id: 'rules',
  kind: 'rules',
  version: RULES_PROMPT_VERSION,
  async judge(input) {
    const outcome = rulesVerdict(input.case.split, input.parsed, input.findings);
    return {
      outcome,
      usage: null,
      latencyMs: 0,
      attempts: 0,
      cached: false,
      promptVersion: RULES_PROMPT_VERSION,
    };
  },
};
