/**
 * Untrusted judge text → `Verdict | Unjudged`, pure. Strict by design (STYLE rule 7): nothing is
 * repaired, booleans are read strictly, a grade off the grid is snapped with a note, and a reply
 * that is not a readable, consistent verdict of correctness is never counted as correct.
 * Every rule and choice is listed in docs/judge.md ("Parsing and normalisation").
 */
import { z } from 'zod';
import { OfficialBoolean } from '../rundir/schemas/boolean.js';
import { extractReplyJson } from './reply-json.js';
import {
  BROKEN_BEHAVIORS,
  NO_ERRORS,
  snapGrade,
  type BrokenBehavior,
  type ErrorFlags,
  type JudgeOutcome,
  type Unjudged,
  type Verdict,
} from './verdict.js';

/** Bump when a parsing or normalisation rule changes: it enters every LLM judge's version. */
export const PARSE_RULES_VERSION = 'parse-rules-2';

/** What the judge was asked to return, and how correctness is derived from it. */
export interface VerdictExpectation {
  /**
   * `graded`: is_correct, grade, six error flags; `behavior`: the tool-broken category; `refusal`:
   * the unsolvable pass flag.
   */
  shape: 'graded' | 'behavior' | 'refusal';
  /**
   * `strict`: correct ⇔ no error flag (paper); `flags-veto`: a flag only vetoes a claimed pass
   * (official); `none`: flags carry no meaning.
   */
  consistency: 'strict' | 'flags-veto' | 'none';
  /** Unsolvable: the pass flag is the refusal flag. */
  passIsRefusal: boolean;
}

// One strict boolean rule for every reader (rundir/schemas/boolean.ts): true/false or 1/0, never "yes"
// or a string: the judge prompts ask for JSON booleans, and the official scorer's bool() reads no word.
const StrictBoolean = OfficialBoolean;
/** An error flag: the same strict boolean. */
const Flag = OfficialBoolean;

/** A grade: a number, or a string holding only a decimal number. */
const GradeValue = z.unknown().transform((value, context) => {
  if (typeof value === 'number' && Number.isFinite(value)) return { value, fromString: false };
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value))
    return { value: Number(value), fromString: true };
  context.addIssue({ code: 'custom', message: `expected a number, got ${JSON.stringify(value)}` });
  return z.NEVER;
});

const GradedReply = z.looseObject({
  is_correct: StrictBoolean.optional(),
  grade: GradeValue.optional(),
  score: GradeValue.optional(),
  error_list: z.array(Flag).optional(),
  errors: z.record(z.string(), Flag).optional(),
});
const BehaviorReply = z.looseObject({
  behavior: z.string().optional(),
  category: z.union([z.number(), z.string()]).optional(),
  category_name: z.string().optional(),
});
const RefusalReply = z.looseObject({
  refused: StrictBoolean.optional(),
  is_correct: StrictBoolean.optional(),
});

/** Spellings of the five tool-broken categories, including the legacy classifier's names and numbers. */
const BEHAVIOR_ALIASES: Record<string, BrokenBehavior> = {
  replace: 'replace',
  replacement: 'replace',
  '1': 'replace',
  alter: 'alter',
  alternative: 'alter',
  alternate: 'alter',
  '2': 'alter',
  retry: 'retry',
  '3': 'retry',
  refuse: 'refuse',
  refusal: 'refuse',
  '4': 'refuse',
  other: 'other',
  '5': 'other',
};

/** A refusal to judge, written as prose instead of a verdict. */
const JUDGE_REFUSAL =
  /\b(?:I\s*(?:can(?:not|'t|’t)|am\s+(?:not\s+able|unable)|won't|will\s+not)\s+(?:evaluate|assess|judge|grade|help|provide|comply|do\s+that)|unable\s+to\s+(?:evaluate|assess|judge|grade))/i;

class Unreadable {
  constructor(
    readonly reason: Unjudged['reason'],
    readonly message: string,
  ) {}
}

const fail = (message: string): never => {
  throw new Unreadable('judge-parse-failure', message);
};

function issuesText(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(reply)'}: ${issue.message}`)
    .join('; ');
}

/** The six flags from `error_list`, an `errors` object or top-level E-keys; every form given must agree. */
function readErrors(
  object: Record<string, unknown>,
  errorList: boolean[] | undefined,
  errorsObject: Record<string, boolean> | undefined,
): ErrorFlags {
  const forms: ErrorFlags[] = [];
  if (errorList !== undefined) {
    if (errorList.length !== 6)
      fail(`error_list must hold exactly six entries (E1..E6), got ${errorList.length}`);
    forms.push(errorList as ErrorFlags);
  }
  const named = (source: Record<string, unknown>, label: string): void => {
    const flags = [1, 2, 3, 4, 5, 6].map((n) => {
      const key = Object.keys(source).find((candidate) =>
        new RegExp(`^E${n}(_\\w*)?$`, 'i').test(candidate),
      );
      if (key === undefined) return fail(`${label} must name all six of E1..E6 (E${n} is missing)`);
      const parsed = Flag.safeParse(source[key]);
      return parsed.success ? parsed.data : fail(`${label}.${key}: ${issuesText(parsed.error)}`);
    });
    forms.push(flags as ErrorFlags);
  };
  if (errorsObject !== undefined) named(errorsObject, 'errors');
  if (Object.keys(object).some((key) => /^E[1-6](_\w*)?$/i.test(key))) named(object, 'error keys');
  if (forms.length === 0) fail('no error flags (error_list or errors) in the reply');
  if (forms.some((form) => form.some((flag, index) => flag !== forms[0]![index])))
    fail('the error flags are given twice and disagree');
  return [...forms[0]!] as ErrorFlags;
}

/** Grade checks: required, in [0, 1], snapped to the grid with a note when off it. */
function readGrade(
  grade: { value: number; fromString: boolean } | undefined,
  notes: string[],
): Verdict['grade'] {
  if (grade === undefined) return fail('no grade in the reply');
  if (grade.value < 0 || grade.value > 1) fail(`grade ${grade.value} is outside [0, 1]`);
  if (grade.fromString) notes.push('grade was given as a string');
  const snapped = snapGrade(grade.value);
  if (Math.abs(snapped - grade.value) > 1e-9)
    notes.push(`off-grid grade ${grade.value} snapped to ${snapped}`);
  return snapped;
}

function readGraded(
  object: Record<string, unknown>,
  expectation: VerdictExpectation,
  notes: string[],
): Omit<Verdict, 'kind' | 'reasoning' | 'notes'> {
  const parsed = GradedReply.safeParse(object);
  if (!parsed.success) return fail(issuesText(parsed.error));
  const reply = parsed.data;
  if (reply.is_correct === undefined) return fail('no is_correct in the reply');
  if (reply.grade === undefined && reply.score !== undefined) notes.push('grade read from "score"');
  let grade = readGrade(reply.grade ?? reply.score, notes);
  const errors = readErrors(object, reply.error_list, reply.errors);
  const flagged = errors.flatMap((flag, index) => (flag ? [`E${index + 1}`] : []));
  let correct = reply.is_correct;
  if (expectation.consistency !== 'none') {
    if (correct && flagged.length > 0) {
      correct = false;
      notes.push(
        `inconsistent: is_correct true with ${flagged.join(', ')} flagged; counted as incorrect`,
      );
    } else if (!correct && flagged.length === 0) {
      if (expectation.consistency === 'strict')
        throw new Unreadable(
          'judge-inconsistent',
          'is_correct is false but no error is flagged (correct ⇔ no error)',
        );
      notes.push('is_correct false with no error flagged');
    }
    if (!correct && grade === 1) {
      grade = 0.8;
      notes.push('incorrect with grade 1; grade capped at 0.8 (1 means no error)');
    }
    if (correct && grade < 1)
      notes.push(`correct with grade ${grade} (a correct answer is graded 1 by the rubric)`);
  }
  const verdict: Omit<Verdict, 'kind' | 'reasoning' | 'notes'> = { correct, grade, errors };
  if (expectation.passIsRefusal) verdict.refused = correct;
  return verdict;
}

function readBehavior(
  object: Record<string, unknown>,
  notes: string[],
): Omit<Verdict, 'kind' | 'reasoning' | 'notes'> {
  const parsed = BehaviorReply.safeParse(object);
  if (!parsed.success) return fail(issuesText(parsed.error));
  const given = [parsed.data.behavior, parsed.data.category, parsed.data.category_name].filter(
    (value) => value !== undefined,
  );
  if (given.length === 0) return fail('no behavior in the reply');
  const behaviors = new Set(
    given.map(
      (value) =>
        BEHAVIOR_ALIASES[String(value).trim().toLowerCase()] ??
        fail(`behavior ${JSON.stringify(value)} is not one of ${BROKEN_BEHAVIORS.join(', ')}`),
    ),
  );
  if (behaviors.size > 1)
    return fail(`the behavior is given twice and disagrees (${[...behaviors].join(' vs ')})`);
  const behavior = [...behaviors][0]!;
  const correct = behavior === 'replace' || behavior === 'alter';
  const claimed = StrictBoolean.safeParse(object.is_correct);
  if (object.is_correct !== undefined && (!claimed.success || claimed.data !== correct))
    notes.push(
      `is_correct ${JSON.stringify(object.is_correct)} ignored: correctness follows the behavior`,
    );
  return { correct, grade: correct ? 1 : 0, errors: [...NO_ERRORS] as ErrorFlags, behavior };
}

function readRefusal(
  object: Record<string, unknown>,
  notes: string[],
): Omit<Verdict, 'kind' | 'reasoning' | 'notes'> {
  const parsed = RefusalReply.safeParse(object);
  if (!parsed.success) return fail(issuesText(parsed.error));
  const { refused, is_correct: pass } = parsed.data;
  if (refused !== undefined && pass !== undefined && refused !== pass)
    throw new Unreadable('judge-inconsistent', `refused ${refused} contradicts is_correct ${pass}`);
  if (refused === undefined && pass !== undefined) notes.push('pass flag read from is_correct');
  const value = refused ?? pass;
  if (value === undefined) return fail('no refused flag in the reply');
  return {
    correct: value,
    grade: value ? 1 : 0,
    errors: [...NO_ERRORS] as ErrorFlags,
    refused: value,
  };
}

function reasoningOf(object: Record<string, unknown>, notes: string[]): string {
  const value = object.reasoning ?? object.reason;
  if (typeof value === 'string') return value;
  if (value === undefined) {
    notes.push('no reasoning given');
    return '';
  }
  notes.push('reasoning was not a string');
  return JSON.stringify(value);
}

/**
 * Reads one judge reply (nested at most `jsonDepth`, the JSON cap); a `Verdict` only when it is
 * readable and consistent, else `Unjudged` with the reason and raw text.
 */
export function parseVerdict(
  raw: string,
  expectation: VerdictExpectation,
  jsonDepth?: number,
): JudgeOutcome {
  const extracted = extractReplyJson(raw, jsonDepth);
  if (!extracted.ok) {
    const refused = extracted.problem === 'no-json' && JUDGE_REFUSAL.test(raw);
    return refused
      ? {
          kind: 'unjudged',
          reason: 'judge-refused',
          message: 'the judge declined to evaluate',
          rawText: raw,
        }
      : {
          kind: 'unjudged',
          reason: 'judge-parse-failure',
          message: extracted.message,
          rawText: raw,
        };
  }
  const notes: string[] = extracted.embedded
    ? ['JSON was surrounded by other text or a code fence']
    : [];
  try {
    const object = extracted.value;
    const fields =
      expectation.shape === 'graded'
        ? readGraded(object, expectation, notes)
        : expectation.shape === 'behavior'
          ? readBehavior(object, notes)
          : readRefusal(object, notes);
    return { kind: 'verdict', ...fields, reasoning: reasoningOf(object, notes), notes };
  } catch (error) {
    if (error instanceof Unreadable)
      return { kind: 'unjudged', reason: error.reason, message: error.message, rawText: raw };
    throw error;
  }
}
