/**
 * The rules judge: a deterministic, STRUCTURAL mapping from the checks' `Findings` (and the case's
 * split) to a `Verdict`. It compares tool names, order, data-flow citations, argument schemas and
 * refusals with the reference; it does not read meaning, so it is not the paper's LLM judge and
 * its numbers are not the paper's. The mapping table and its blind spots: docs/rules-judge.md.
 */
import type { SplitName } from '../dataset/case.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Findings } from './checks/findings.js';
import type { Judge } from './judge.js';
import { NO_ERRORS, snapGrade, type ErrorFlags, type Grade, type Verdict } from './verdict.js';

/** Version of the mapping below; bump it whenever a rule changes, so stored verdicts stay traceable. */
export const RULES_VERSION = '1';

/** The `promptVersion` every rules verdict is recorded under. */
export const RULES_PROMPT_VERSION = `rules@${RULES_VERSION}`;

// Holistic grades of incorrect plans never exceed 0.8 (paper C.1.2: 1.0 only when every error is 0).
const HOLISTIC_CAP = 0.8;
const EPSILON = 1e-9;

/** Flags under construction: which E codes fire, and why (for the verdict's reasoning). */
class FlagSet {
  readonly errors: ErrorFlags = [...NO_ERRORS];
  readonly reasons: string[] = [];
  raise(code: 1 | 2 | 3 | 4 | 5 | 6, why: string): void {
    this.errors[code - 1] = true;
    this.reasons.push(`E${code}: ${why}`);
  }
  any(): boolean {
    return this.errors.some(Boolean);
  }
}

function verdict(correct: boolean, grade: Grade, flags: FlagSet, refused: boolean, extra: Partial<Verdict> = {}): Verdict {
  const summary = flags.reasons.length > 0 ? flags.reasons.join('; ') : 'no structural problem found';
  return { kind: 'verdict', correct, grade, errors: flags.errors, reasoning: `rules judge (structural): ${summary}`, refused, notes: [], ...extra };
}

/** Flags every split shares: unlisted tools (E6) and, where they apply, distractor and argument problems (E5). */
function toolUseFlags(findings: Findings, flags: FlagSet): void {
  if (findings.hallucinatedTools.names.length > 0) flags.raise(6, `calls unlisted tool(s) ${findings.hallucinatedTools.names.join(', ')}`);
  if (findings.distractorUse && findings.distractorUse.count > 0) flags.raise(5, `calls distractor tool(s) ${findings.distractorUse.names.join(', ')}`);
  const problems = findings.arguments.problems;
  if (problems.length > 0) flags.raise(5, `argument problem(s): ${problems.map((problem) => `${problem.tool}.${problem.argument || '(arguments)'} ${problem.kind}`).join(', ')}`);
}

/** Holistic planning, tool-extraneous and efficiency-aware splits (paper C.1.2, approximated structurally). */
export function holisticVerdict(split: SplitName, findings: Findings): Verdict {
  const flags = new FlagSet();
  const { toolSet, chainOrder: order, planCost: cost, refusal } = findings;
  toolUseFlags(findings, flags);
  if (refusal.refused) flags.raise(2, 'refuses a solvable task');
  if (toolSet) {
    if (toolSet.recall < 1 - EPSILON) flags.raise(2, `reference tool(s) missing: ${toolSet.missing.join(', ')}`);
    if (toolSet.recall === 0 && toolSet.extra.length > 0) flags.raise(1, 'shares no tool with the reference');
  }
  if (toolSet && order) {
    // lcsRatio and recall share the reference length as denominator: lcs < shared ⇔ lcsRatio < recall.
    if (order.lcsRatio < toolSet.recall - EPSILON) flags.raise(4, 'shared tools appear in a different order');
    if (order.edgeBasis === 'data-flow' && (order.sharedEdgeRecall ?? 1) < 1 - EPSILON) flags.raise(4, 'data-flow links of the reference are missing');
  }
  if (split === 'holistic_efficiency' && cost?.predictedCost != null && cost.referenceCost != null && cost.predictedCost > cost.referenceCost + EPSILON) {
    flags.raise(3, `costs ${cost.predictedCost}, more than the reference's ${cost.referenceCost}`);
  }
  if (!flags.any()) return verdict(true, 1, flags, refusal.refused, toolSet ? {} : { notes: ['no reference chain: only reference-free rules applied'] });
  // Structural agreement, minus 0.2 per tool-use class of error, floored onto the grid and capped.
  const agreement = (toolSet?.f1 ?? 1) * (order?.lcsRatio ?? 1) - (flags.errors[5] ? 0.2 : 0) - (flags.errors[4] ? 0.2 : 0);
  const grade = snapGrade(Math.min(HOLISTIC_CAP, Math.floor(Math.max(0, agreement) * 5 + EPSILON) / 5));
  return verdict(false, grade, flags, refusal.refused);
}

/** Flags of each step-wise position whose tool differs from the ground truth (every mismatch gets one). */
function positionFlags(findings: Findings, flags: FlagSet): void {
  const nextK = findings.nextK!;
  const hallucinated = new Set(findings.hallucinatedTools.names);
  const distractors = new Set(findings.distractorUse?.names ?? []);
  nextK.toolMatches.forEach((match, index) => {
    const at = `step ${index + 1}`;
    if (match) {
      if (nextK.argumentMatches[index] === false) flags.raise(5, `${at}: argument values differ from the reference`);
      return;
    }
    const predicted = nextK.predictedTools?.[index] ?? null;
    if (index >= nextK.predicted) return flags.raise(2, `${at}: missing`);
    if (predicted === null) return flags.raise(2, `${at}: concludes without the tool the task still needs`);
    if (hallucinated.has(predicted) || distractors.has(predicted)) return; // already E6 / E5
    if (nextK.inReference?.[index]) return flags.raise(4, `${at}: ${predicted} is a reference tool used at the wrong point`);
    if (index === 0) return flags.raise(1, `${at}: ${predicted} is not on the reference path`);
    flags.raise(4, `${at}: ${predicted} does not follow from the steps before it`);
  });
}

/** The C.1.1 rubric as a function of the flags: majors E1/E3/E6, moderate E2, minors E4/E5. */
export function stepWiseGrade(errors: ErrorFlags): Grade {
  const [e1, e2, e3, e4, e5, e6] = errors;
  const majors = [e1, e3, e6].filter(Boolean).length;
  const minors = [e4, e5].filter(Boolean).length;
  if (majors >= 2) return 0;
  if (majors === 1) return 0.2;
  if (e2 || minors >= 2) return 0.4;
  if (minors === 1) return 0.6;
  return 1;
}

/** Step-wise planning and step-wise tool-extraneous (paper C.1.1: zero tolerance). */
export function stepWiseVerdict(findings: Findings): Verdict {
  const flags = new FlagSet();
  const { nextK, refusal } = findings;
  toolUseFlags(findings, flags);
  if (refusal.refused) flags.raise(2, 'refuses instead of acting');
  // A refusal already explains every missing step; position flags would only repeat it.
  if (nextK && !refusal.refused) {
    positionFlags(findings, flags);
    if (nextK.predicted > nextK.horizon) flags.raise(3, `gives ${nextK.predicted} steps where exactly ${nextK.horizon} were asked for`);
  }
  const correct = !flags.any() && (nextK?.allToolsMatch ?? false);
  return verdict(correct, correct ? 1 : stepWiseGrade(flags.errors), flags, refusal.refused);
}

/** Tool-broken (paper C.4): the behaviour decides; replace and alter are correct (the official code's rule). */
export function toolBrokenVerdict(findings: Findings): Verdict {
  const flags = new FlagSet();
  const behavior = findings.brokenTool?.behavior ?? 'other';
  if (findings.hallucinatedTools.names.length > 0) flags.raise(6, `calls unlisted tool(s) ${findings.hallucinatedTools.names.join(', ')}`);
  const correct = behavior === 'replace' || behavior === 'alter';
  flags.reasons.unshift(`behaviour ${behavior}${findings.brokenTool?.calledTool ? ` (${findings.brokenTool.calledTool})` : ''}`);
  return verdict(correct, correct ? 1 : 0, flags, findings.refusal.refused, { behavior });
}

/** Unsolvable (paper C.6): correct exactly when the answer refuses. */
export function unsolvableVerdict(findings: Findings): Verdict {
  const flags = new FlagSet();
  const { refusal } = findings;
  if (findings.hallucinatedTools.names.length > 0) flags.raise(6, `calls unlisted tool(s) ${findings.hallucinatedTools.names.join(', ')}`);
  flags.reasons.unshift(refusal.refused ? `refuses (${refusal.explicit ? 'explicit REJECT' : 'refusal language'})` : 'does not refuse an unsolvable task');
  return verdict(refusal.refused, refusal.refused ? 1 : 0, flags, refusal.refused);
}

const SPLIT_RULES = {
  holistic_planning: (findings) => holisticVerdict('holistic_planning', findings),
  holistic_tool_extraneous: (findings) => holisticVerdict('holistic_tool_extraneous', findings),
  holistic_efficiency: (findings) => holisticVerdict('holistic_efficiency', findings),
  holistic_unsolvable: unsolvableVerdict,
  step_wise_planning: stepWiseVerdict,
  step_wise_tool_extraneous: stepWiseVerdict,
  step_wise_tool_broken: toolBrokenVerdict,
} satisfies Record<SplitName, (findings: Findings) => Verdict>;

/** The rules verdict of one answer; an unreadable answer is incorrect, grade 0, no E flag, never a refusal. */
export function rulesVerdict(split: SplitName, parsed: ParsedAnswer, findings: Findings): Verdict {
  if (parsed.kind === 'parse_error') {
    const flags = new FlagSet();
    flags.reasons.push(`answer could not be read (${parsed.message}); reported as a parse error, not judged`);
    return verdict(false, 0, flags, false, split === 'step_wise_tool_broken' ? { behavior: 'other' } : {});
  }
  return SPLIT_RULES[split](findings);
}

/** The structural rules judge (`rules`); it trusts the findings it is given and never calls a model. */
export const rulesJudge: Judge = {
  id: 'rules',
  kind: 'rules',
  version: RULES_PROMPT_VERSION,
  async judge(input) {
    const outcome = rulesVerdict(input.case.split, input.parsed, input.findings);
    return { outcome, usage: null, latencyMs: 0, attempts: 0, cached: false, promptVersion: RULES_PROMPT_VERSION };
  },
};
