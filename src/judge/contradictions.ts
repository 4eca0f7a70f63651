/**
 * Cross-checks an LLM verdict against the deterministic findings: every verdict that contradicts
 * what the checks established gets a reason code, for review and for per-split counts. A
 * contradiction does not change the verdict; it flags it (peers.md §B10: report disagreement).
 */
import type { CaseReference, SplitName } from '../dataset/case.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Findings } from './checks/findings.js';
import { readableProse } from './checks/refusal.js';
import type { Verdict } from './verdict.js';

/** Every kind of contradiction, one code each. */
export const CONTRADICTION_CODES = [
  'correct-with-hallucinated-tool',
  'correct-with-distractor',
  'correct-with-unparsed-answer',
  'refusal-credited-unparsed',
  'correct-refusal-on-solvable',
  'correct-wrong-step-count',
  'broken-replace-not-replacement',
  'broken-alter-is-replacement',
  'broken-pass-but-retry',
  'unsolvable-pass-with-plan',
  'unsolvable-fail-on-explicit-refusal',
] as const;
/** A contradiction's reason code. */
export type ContradictionCode = (typeof CONTRADICTION_CODES)[number];

/** One contradiction between a verdict and the findings. */
export interface Contradiction {
  code: ContradictionCode;
  message: string;
}

/**
 * What the cross-check reads: the case's split and labels, the parsed answer and its findings (a
 * `JudgeInput` fits).
 */
export interface ContradictionInput {
  case: { split: SplitName; reference: Pick<CaseReference, 'replacementTool' | 'brokenToolName'> };
  parsed: ParsedAnswer;
  findings: Findings;
  /** The raw answer and whether it was cut off: a readable prose answer may be credited although it did not parse. */
  rawAnswer?: string;
  truncated?: boolean;
}

/** The contradictions between one verdict and the findings of its answer. */
export function findContradictions(input: ContradictionInput, verdict: Verdict): Contradiction[] {
  return [
    ...answerContradictions(input, verdict),
    ...brokenToolContradictions(input, verdict),
    ...unsolvableContradictions(input, verdict),
  ];
}

const flagged = (code: ContradictionCode, message: string): Contradiction => ({ code, message });

/** Any split: unlisted tools, distractors, an unparsed answer, a refusal, the wrong step count. */
function answerContradictions(input: ContradictionInput, verdict: Verdict): Contradiction[] {
  const { parsed, findings } = input;
  const split = input.case.split;
  const found: Contradiction[] = [];
  if (verdict.correct && findings.hallucinatedTools.names.length > 0)
    found.push(
      flagged(
        'correct-with-hallucinated-tool',
        `correct, but calls unlisted tool(s) ${findings.hallucinatedTools.names.join(', ')}`,
      ),
    );
  if (verdict.correct && findings.distractorUse && findings.distractorUse.count > 0)
    found.push(
      flagged(
        'correct-with-distractor',
        `correct, but calls distractor(s) ${findings.distractorUse.names.join(', ')}`,
      ),
    );
  const unreadable =
    parsed.kind === 'parse_error' &&
    !readableProse({ text: input.rawAnswer ?? '', truncated: input.truncated ?? false });
  if (unreadable && verdict.refused === true)
    found.push(
      flagged(
        'refusal-credited-unparsed',
        'a refusal is credited, but the answer could not be parsed',
      ),
    );
  else if (unreadable && verdict.correct)
    found.push(
      flagged('correct-with-unparsed-answer', 'correct, but the answer could not be parsed'),
    );
  if (verdict.correct && split !== 'holistic_unsolvable' && parsed.kind === 'refusal')
    found.push(
      flagged('correct-refusal-on-solvable', 'correct, but the answer refuses a solvable task'),
    );
  const nextK = findings.nextK;
  if (
    verdict.correct &&
    split !== 'step_wise_tool_broken' &&
    nextK &&
    nextK.predicted !== nextK.horizon
  )
    found.push(
      flagged(
        'correct-wrong-step-count',
        `correct, but ${nextK.predicted} step(s) were predicted for ${nextK.horizon} asked`,
      ),
    );
  return found;
}

/** The broken-tool split: the behaviour credited against the first call the answer makes. */
function brokenToolContradictions(input: ContradictionInput, verdict: Verdict): Contradiction[] {
  const { reference } = input.case;
  const brokenTool = input.findings.brokenTool;
  if (input.case.split !== 'step_wise_tool_broken' || !brokenTool) return [];
  const found: Contradiction[] = [];
  const called = brokenTool.calledTool;
  const replacement = reference.replacementTool?.name ?? null;
  if (verdict.behavior === 'replace' && (called === null || called !== replacement))
    found.push(
      flagged(
        'broken-replace-not-replacement',
        `replace, but the first call is ${called ?? 'none'}, not ${replacement ?? '(no replacement recorded)'}`,
      ),
    );
  if (verdict.behavior === 'alter' && called !== null && called === replacement)
    found.push(
      flagged(
        'broken-alter-is-replacement',
        `alter, but the first call is the replacement ${called}`,
      ),
    );
  if (verdict.correct && called !== null && called === reference.brokenToolName)
    found.push(
      flagged(
        'broken-pass-but-retry',
        `recovery credited, but the first call is the broken tool ${called}`,
      ),
    );
  return found;
}

/** The unsolvable split: a pass for a plan without a refusal, a fail for an explicit refusal. */
function unsolvableContradictions(input: ContradictionInput, verdict: Verdict): Contradiction[] {
  const { parsed, findings } = input;
  if (input.case.split !== 'holistic_unsolvable') return [];
  const found: Contradiction[] = [];
  if (
    verdict.correct &&
    parsed.kind === 'plan' &&
    parsed.toolChain.length > 0 &&
    !findings.refusal.refused
  )
    found.push(
      flagged(
        'unsolvable-pass-with-plan',
        `pass, but the answer holds a ${parsed.toolChain.length}-call tool chain and no refusal`,
      ),
    );
  if (!verdict.correct && parsed.kind === 'refusal')
    found.push(
      flagged(
        'unsolvable-fail-on-explicit-refusal',
        'fail, but the answer is an explicit REJECT (check whether its reason is inadequate)',
      ),
    );
  return found;
}

/** Contradiction counts of one group of verdicts. */
export interface ContradictionCount {
  checked: number;
  /** Verdicts with at least one contradiction. */
  flagged: number;
  byCode: Partial<Record<ContradictionCode, number>>;
}

/**
 * The `contradictions` section of `scores.json`: the recorded verdicts per split and overall, and
 * each LLM judge's own.
 */
export interface ContradictionsSection {
  overall: ContradictionCount;
  bySplit: Record<string, ContradictionCount>;
  byJudge: Record<
    string,
    { overall: ContradictionCount; bySplit: Record<string, ContradictionCount> }
  >;
}

/** Counts contradictions per split and overall. */
export function countContradictions(
  items: readonly { split: string; contradictions: readonly Contradiction[] }[],
): { overall: ContradictionCount; bySplit: Record<string, ContradictionCount> } {
  const empty = (): ContradictionCount => ({ checked: 0, flagged: 0, byCode: {} });
  const overall = empty();
  const bySplit: Record<string, ContradictionCount> = {};
  for (const item of items) {
    for (const count of [overall, (bySplit[item.split] ??= empty())]) {
      count.checked += 1;
      if (item.contradictions.length > 0) count.flagged += 1;
      for (const { code } of item.contradictions)
        count.byCode[code] = (count.byCode[code] ?? 0) + 1;
    }
  }
  return { overall, bySplit };
}
