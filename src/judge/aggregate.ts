/**
 * Several judges' outcomes for one answer → one recorded outcome. Majority correctness (a tie is
 * not correct), majority per error flag (a tie sets the flag), lower median grade (always on the
 * grid), behaviour by plurality within the winning side, majority refusal (a tie is no refusal).
 * Unjudged members leave the pool; when none is left the result is Unjudged. See docs/judge.md.
 */
import {
  ERROR_CODES,
  type BrokenBehavior,
  type ErrorFlags,
  type JudgeOutcome,
  type Unjudged,
  type Verdict,
} from './verdict.js';

/** One judge's outcome for the answer. */
export interface JudgeVote {
  judge: string;
  outcome: JudgeOutcome;
}

/** Which fields were decided by a tie rule rather than a strict majority. */
export interface AggregateTies {
  correct: boolean;
  grade: boolean;
  /** Codes (E1..E6) whose flag was set by a tie. */
  errors: string[];
  behavior: boolean;
  refused: boolean;
}

/** The aggregated outcome, how many judges voted, and the ties. */
export interface Aggregate {
  outcome: JudgeOutcome;
  members: number;
  voters: number;
  ties: AggregateTies;
}

/** Tie order among passing and among failing behaviours: the less favourable one wins a tie. */
const PASSING: BrokenBehavior[] = ['alter', 'replace'];
const FAILING: BrokenBehavior[] = ['other', 'refuse', 'retry'];

function pluralityBehavior(
  verdicts: Verdict[],
  correct: boolean,
): { behavior: BrokenBehavior | undefined; tie: boolean } {
  const side = correct ? PASSING : FAILING;
  const counts = new Map<BrokenBehavior, number>();
  for (const verdict of verdicts)
    if (verdict.behavior && side.includes(verdict.behavior))
      counts.set(verdict.behavior, (counts.get(verdict.behavior) ?? 0) + 1);
  if (counts.size === 0) return { behavior: undefined, tie: false };
  const top = Math.max(...counts.values());
  const leaders = side.filter((behavior) => counts.get(behavior) === top);
  return { behavior: leaders[0], tie: leaders.length > 1 };
}

function allUnjudged(votes: JudgeVote[]): Unjudged {
  const unjudged = votes.map((vote) => vote.outcome as Unjudged);
  const counts = new Map<Unjudged['reason'], number>();
  for (const outcome of unjudged) counts.set(outcome.reason, (counts.get(outcome.reason) ?? 0) + 1);
  const reason = [...counts.entries()].reduce((best, entry) =>
    entry[1] > best[1] ? entry : best,
  )[0];
  const message = `no judge gave a readable verdict: ${votes.map((vote, index) => `${vote.judge}: ${unjudged[index]!.reason} (${unjudged[index]!.message})`).join('; ')}`;
  return { kind: 'unjudged', reason, message };
}

/** Aggregates the outcomes of several judges for one answer. */
export function aggregateVerdicts(votes: JudgeVote[]): Aggregate {
  if (votes.length === 0) throw new RangeError('aggregateVerdicts needs at least one vote');
  const noTies: AggregateTies = {
    correct: false,
    grade: false,
    errors: [],
    behavior: false,
    refused: false,
  };
  const verdicts = votes.flatMap((vote) => (vote.outcome.kind === 'verdict' ? [vote.outcome] : []));
  if (verdicts.length === 0)
    return { outcome: allUnjudged(votes), members: votes.length, voters: 0, ties: noTies };
  const n = verdicts.length;
  const correctVotes = verdicts.filter((verdict) => verdict.correct).length;
  const ties: AggregateTies = { ...noTies, correct: correctVotes * 2 === n };
  const correct = correctVotes * 2 > n;
  const errors = ERROR_CODES.map((code, index) => {
    const flagged = verdicts.filter((verdict) => verdict.errors[index]).length;
    if (flagged * 2 === n && flagged > 0) ties.errors.push(code);
    return flagged * 2 >= n && flagged > 0;
  }) as ErrorFlags;
  const grades = verdicts.map((verdict) => verdict.grade).sort((a, b) => a - b);
  const grade = grades[Math.floor((n - 1) / 2)]!;
  ties.grade = n % 2 === 0 && grades[n / 2 - 1] !== grades[n / 2];
  const behavior = pluralityBehavior(verdicts, correct);
  ties.behavior = behavior.tie;
  const refusalVotes = verdicts.filter((verdict) => verdict.refused !== undefined);
  const refusedCount = refusalVotes.filter((verdict) => verdict.refused).length;
  ties.refused = refusalVotes.length > 0 && refusedCount * 2 === refusalVotes.length;
  const notes = [`aggregated ${n} verdict(s) of ${votes.length} judge(s)`];
  if (ties.correct)
    notes.push(`correctness tied ${correctVotes}–${n - correctVotes}: not counted as correct`);
  if (ties.errors.length > 0) notes.push(`error flag(s) ${ties.errors.join(', ')} tied: set`);
  if (ties.grade)
    notes.push(`grades tied between ${grades[n / 2 - 1]} and ${grades[n / 2]}: the lower is kept`);
  if (ties.behavior) notes.push(`behaviour tied: ${behavior.behavior} kept`);
  if (ties.refused) notes.push('refusal tied: not counted as a refusal');
  if (!correct && !errors.some(Boolean) && verdicts.some((verdict) => verdict.errors.some(Boolean)))
    notes.push('incorrect, but no error flag reached half of the judges');
  const outcome: Verdict = {
    kind: 'verdict',
    correct,
    grade,
    errors,
    reasoning: votes
      .map(
        (vote) =>
          `[${vote.judge}] ${vote.outcome.kind === 'verdict' ? vote.outcome.reasoning : `unjudged: ${vote.outcome.message}`}`,
      )
      .join('\n'),
    notes,
  };
  if (behavior.behavior) outcome.behavior = behavior.behavior;
  if (refusalVotes.length > 0) outcome.refused = refusedCount * 2 > refusalVotes.length;
  return { outcome, members: votes.length, voters: n, ties };
}
