/**
 * What `apb refine` writes, pure: the refined prediction line (the revised answer where there is
 * one, `apb.refinement` with every round), its fingerprint, the judgement recorded when a
 * refinement produced no answer (never an empty answer sent to a judge), and the judgement line
 * with the refinement moved to `apb.refinement`. Layout: docs/refine.md ("The refined run directory").
 */
import { canonicalJson } from '../canonical-json.js';
import type { Judge } from '../judge/judge.js';
import type { Usage } from '../providers/provider.js';
import type { RefineOutcome } from '../refine/refine-answer.js';
import type { CallRecord } from '../refine/records.js';
import { sha256 } from './fingerprint.js';
import { judgementMeta } from './judge-record.js';
import {
  RESULT_SCHEMA_VERSION,
  type InitialAnswer,
  type JudgementLine,
  type LineRefinement,
  type PredictionLine,
  type PredictionMeta,
  type RefineSetup,
} from './records.js';
import type { SavedPrediction } from './saved-predictions.js';

/** A refined answer is the same work when the source answer and the refinement setup are the same. */
export function refinedFingerprint(sourceFingerprint: string, setup: RefineSetup): string {
  return sha256(canonicalJson({ refine: setup, source: sourceFingerprint })).slice(0, 24);
}

function sumUsage(records: readonly CallRecord[]): Usage | null {
  const used = records.filter((record) => record.usage && !record.cached);
  if (used.length === 0) return null;
  return {
    inputTokens: used.reduce((sum, record) => sum + (record.usage?.inputTokens ?? 0), 0),
    outputTokens: used.reduce((sum, record) => sum + (record.usage?.outputTokens ?? 0), 0),
  };
}

/** Why a refinement has no answer, in one line. */
function failureMessage(refinement: LineRefinement): string {
  if (refinement.status === 'no_initial_answer')
    return 'the source run has no answer for this case (its planner call failed)';
  const last =
    refinement.status === 'revision_failed'
      ? refinement.revisions.at(-1)
      : refinement.critiques.at(-1);
  if (refinement.status === 'critique_unreadable')
    return `round ${refinement.critiques.length}: the critic replied with no text`;
  const step = refinement.status === 'revision_failed' ? 'revision' : 'critique';
  return `round ${refinement.status === 'revision_failed' ? refinement.revisions.length : refinement.critiques.length}: the ${step} call failed (${last?.error?.message ?? 'unknown error'})`;
}

/** What the refined line needs besides the outcome. */
export interface RefinedLineContext {
  item: SavedPrediction;
  setup: RefineSetup;
  fingerprint: string;
  source: { dir: string; manifestSha256: string };
  initial: InitialAnswer;
}

/** The refined prediction line; `outcome` is null when the source has no initial answer to refine. */
export function refinedPredictionLine(
  context: RefinedLineContext,
  outcome: RefineOutcome | null,
): PredictionLine {
  const { item, setup } = context;
  const critiques = outcome?.rounds.map((round) => round.critique) ?? [];
  const revisions =
    outcome?.rounds.flatMap((round) => (round.revision ? [round.revision] : [])) ?? [];
  const refinement: LineRefinement = {
    mode: setup.mode,
    taxonomy: setup.taxonomy,
    critic: setup.critic,
    rounds: setup.rounds,
    round: revisions.filter((revision) => revision.status !== 'error').length,
    status: outcome?.status ?? 'no_initial_answer',
    source_run: {
      dir: context.source.dir,
      manifest_sha256: context.source.manifestSha256,
      fingerprint: item.prediction.apb.fingerprint,
    },
    initial: context.initial,
    critiques,
    revisions,
  };
  const last = revisions.at(-1);
  const answered = outcome?.status === 'ok' || outcome?.status === 'parse_error';
  const meta: PredictionMeta = {
    schema_version: RESULT_SCHEMA_VERSION,
    status:
      outcome?.status === 'ok' ? 'ok' : outcome?.status === 'parse_error' ? 'parse_error' : 'error',
    repeat: item.prediction.apb.repeat,
    fingerprint: context.fingerprint,
    prompt_version: item.prompt.promptVersion,
    parsed:
      outcome?.status === 'ok' && outcome.parsed && outcome.parsed.kind !== 'parse_error'
        ? outcome.parsed
        : null,
    usage: sumUsage(revisions),
    latency_ms:
      revisions.length > 0
        ? revisions.reduce((sum, revision) => sum + (revision.latency_ms ?? 0), 0)
        : null,
    finish_reason: last?.finish_reason ?? null,
    attempts: revisions.reduce((sum, revision) => sum + revision.attempts, 0),
    cached: revisions.length > 0 && revisions.every((revision) => revision.cached),
    facets: item.caseItem.facets,
    refinement,
  };
  if (outcome?.status === 'parse_error' && outcome.parsed?.kind === 'parse_error')
    meta.parse_error = outcome.parsed.message;
  if (!answered) meta.error = { kind: 'refinement', message: failureMessage(refinement) };
  return {
    ...item.caseItem.record,
    id: item.caseItem.id,
    split: item.caseItem.split,
    tested_model: item.prediction.tested_model,
    model_response: answered ? (outcome?.text ?? '') : '',
    apb: meta,
  };
}

/** The judgement of a refinement without an answer: not correct, grade 0, and nothing sent to the judge. */
export function unansweredJudgement(judge: Judge, prediction: PredictionLine): JudgementLine {
  const reason = prediction.apb.error?.message ?? 'no refined answer';
  return {
    ...prediction,
    judge_model: judge.id,
    judgement: {
      is_correct: false,
      grade: 0,
      error_list: [0, 0, 0, 0, 0, 0],
      reasoning: `no refined answer to judge: ${prediction.apb.refinement?.status ?? 'error'}: ${reason}`,
    },
    apb: judgementMeta(judge, null, null, prediction.apb, [
      'refinement produced no answer; not sent to the judge',
    ]),
  };
}

/** A judgement line of a refined answer: the refinement moves from `apb.prediction` to `apb.refinement` (written once per line). */
export function withRefinementOnTop(line: JudgementLine): JudgementLine {
  const { refinement, ...prediction } = line.apb.prediction;
  return refinement ? { ...line, apb: { ...line.apb, prediction, refinement } } : line;
}
