/**
 * One saved answer of `apb refine`: skipped when its refined judgement is on file, judged again
 * when only its refined prediction is (a resume), otherwise its initial verdict, the refinement
 * loop (refine/) and the refined prediction line, then its judgement by the run's judge.
 */
import type { Limits } from '../limits.js';
import type { Judge } from '../judge/judge.js';
import type { Provider } from '../providers/provider.js';
import type { Critic } from '../refine/critic.js';
import { refineAnswer } from '../refine/refine-answer.js';
import { judgePrediction } from './evaluate-case.js';
import { judgementKey } from './fingerprint.js';
import type { RunReporter } from './events.js';
import type { InitialAnswer, PredictionLine, RefineSetup } from './records.js';
import type { StepJournal } from './refine-journal.js';
import {
  refinedFingerprint,
  refinedPredictionLine,
  unansweredJudgement,
  withRefinementOnTop,
} from './refine-record.js';
import type { RefineSource } from './refine-source.js';
import type { ResumeState } from './resume.js';
import type { SavedPrediction } from './saved-predictions.js';

/** What every answer of one refinement shares: the request, the models, the journal, the stores. */
export interface RefineContext {
  /** The source run and the refinement's setup (of a `RefineRunRequest`). */
  request: { source: RefineSource; setup: RefineSetup; limits?: Limits | undefined };
  /** The tested model (revisions; critiques too in self mode), the critic, the judge, progress. */
  deps: { reviser: Provider; critic: Critic | Provider; judge: Judge; reporter?: RunReporter };
  journal: StepJournal;
  resume: ResumeState;
  signal: AbortSignal;
  appendPrediction(line: PredictionLine, item: SavedPrediction): void;
  appendJudgement(line: ReturnType<typeof withRefinementOnTop>, item: SavedPrediction): void;
}

/** The verdict on the initial answer under this run's judge: the source's, one judged earlier here, or a judge call now. */
async function initialOf(
  item: SavedPrediction,
  fingerprint: string,
  context: RefineContext,
): Promise<InitialAnswer> {
  const { prediction } = item;
  const { judge } = context.deps;
  const base = {
    model_response: prediction.model_response,
    status: prediction.apb.status,
    judge: judge.id,
  };
  if (prediction.apb.status === 'error')
    return { ...base, is_correct: false, grade: 0, judge_status: 'none', judged_in: 'source' };
  const verdict = context.request.source.verdicts.get(`${prediction.apb.fingerprint}|${judge.id}`);
  if (verdict)
    return {
      ...base,
      is_correct: verdict.is_correct,
      grade: verdict.grade,
      judge_status: verdict.status,
      judged_in: 'source',
    };
  const journaled = context.journal.initialOf(fingerprint);
  if (journaled) return journaled;
  const line = await judgePrediction(item.caseItem, prediction, item.prompt, {
    judge,
    signal: context.signal,
    jsonDepth: context.request.limits?.jsonDepth,
  });
  const usage =
    judge.kind === 'llm' ? { judge_usage: line.apb.usage, judge_cached: line.apb.cached } : {};
  const initial: InitialAnswer = {
    ...base,
    is_correct: line.judgement.is_correct,
    grade: line.judgement.grade,
    judge_status: line.apb.status,
    judged_in: 'refine',
    ...usage,
  };
  context.journal.appendInitial(fingerprint, initial);
  return initial;
}

/** One saved answer: skip when finished, judge a saved refinement, or refine then judge. */
export async function refineOne(item: SavedPrediction, context: RefineContext): Promise<void> {
  const { request, deps } = context;
  const fingerprint = refinedFingerprint(item.prediction.apb.fingerprint, request.setup);
  if (context.resume.finished.has(judgementKey(fingerprint, deps.judge.id))) return;
  let prediction = context.resume.pending.get(fingerprint);
  if (!prediction) {
    const initial = await initialOf(item, fingerprint, context);
    const outcome =
      item.prediction.apb.status === 'error'
        ? null
        : await refineAnswer(
            {
              split: item.caseItem.split,
              input: item.caseItem.input,
              prompt: item.prompt,
              initialAnswer: item.prediction.model_response,
              reviser: deps.reviser,
              critic: deps.critic,
              mode: request.setup.mode,
              taxonomy: request.setup.taxonomy,
              rounds: request.setup.rounds,
              sampling: request.source.manifest.identity.sampling,
              criticSampling: request.setup.critic_sampling,
              json: request.source.promptOptions.protocol === 'official',
              allowRefusal: request.source.promptOptions.allowRefusal,
              repeat: item.prediction.apb.repeat,
              done: context.journal.stepsOf(fingerprint),
              onStep: (step) => context.journal.appendStep(fingerprint, step),
              jsonDepth: request.limits?.jsonDepth,
            },
            context.signal,
          );
    const source = { dir: request.source.dir, manifestSha256: request.source.manifestSha256 };
    prediction = refinedPredictionLine(
      { item, setup: request.setup, fingerprint, source, initial },
      outcome,
    );
    context.appendPrediction(prediction, item);
  }
  const answered = prediction.apb.status !== 'error';
  const judged = answered
    ? await judgePrediction(item.caseItem, prediction, item.prompt, {
        judge: deps.judge,
        signal: context.signal,
        jsonDepth: request.limits?.jsonDepth,
      })
    : unansweredJudgement(deps.judge, prediction);
  const line = withRefinementOnTop(judged);
  context.appendJudgement(line, item);
  deps.reporter?.onCaseEnd?.({
    id: item.caseItem.id,
    split: item.caseItem.split,
    repeat: item.prediction.apb.repeat,
    plannerStatus: prediction.apb.status,
    judgeStatus: line.apb.status,
    correct: line.judgement.is_correct,
  });
}
