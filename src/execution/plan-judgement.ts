/**
 * Judging an execution's plans the APB way (Table 3's APB CR and Grade): the plan is a holistic answer to the
 * planning case of the task — the planner's own input — with the task's reference actions as the reference tool
 * chain, judged by the run's judge (rules or an LLM) after the deterministic checks. Only the judge sees the
 * reference; a plan whose call failed is recorded as not judged and counted incorrect, as `apb run` counts it.
 */
import type { Case, ToolCall } from '../dataset/case.js';
import { runChecks } from '../judge/checks/index.js';
import type { Judge } from '../judge/judge.js';
import { guardParseFailure, judgementOf, type Judgement } from '../judge/judgement.js';
import type { Usage } from '../providers/provider.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import { draftPlanPrompt, planningInput, type PlanningContext, type PlanRecord } from './plans.js';

/** A reference action of a task, as the judge needs it. */
export interface ReferenceCall {
  name: string;
  arguments: unknown;
  requestor?: 'assistant' | 'user';
}

/** An APB judgement of one plan. */
export interface PlanJudgement {
  status: 'ok' | 'judge_error' | 'not_judged';
  judge: string;
  judgement: Judgement;
  usage: Usage | null;
  cached: boolean;
  notes: string[];
}

/** The APB holistic case of a task: the planner's input, and the agent's reference actions as the reference chain. */
export function planningCase(
  id: string,
  context: PlanningContext,
  actions: readonly ReferenceCall[] | null,
): Case {
  const input = planningInput(context);
  const toolChain: ToolCall[] = (actions ?? [])
    .filter((action) => (action.requestor ?? 'assistant') === 'assistant')
    .map((action) => ({ name: action.name, arguments: action.arguments }));
  return {
    id,
    split: 'holistic_planning',
    input,
    reference: {
      plan: null,
      toolChain,
      groundTruthSteps: [],
      remainingSteps: [],
      unsolvableType: null,
      extraneousToolNames: [],
      brokenToolName: null,
      replacementTool: null,
    },
    facets: {
      split: 'holistic_planning',
      regime: 'Holistic',
      source: 'tau2-bench',
      sourceSubset: null,
      taskFamily: null,
      taskCategory: null,
      horizon: null,
      stage: null,
      distractorLevel: null,
      unsolvableType: null,
      modality: 'text',
      referenceSteps: toolChain.length,
      baseCaseKey: id,
    },
    record: {},
    recordText: '{}',
    contentHash: id,
    location: { file: '(execution)', line: 0 },
  };
}

/** Judges one plan of an execution; a failed planning call is not sent to the judge. */
export async function judgePlan(
  judge: Judge,
  caseItem: Case,
  context: PlanningContext,
  plan: PlanRecord,
  repeat: number,
  signal?: AbortSignal,
): Promise<PlanJudgement> {
  if (plan.status === 'error') {
    const judgement: Judgement = {
      is_correct: false,
      grade: 0,
      error_list: [0, 0, 0, 0, 0, 0],
      reasoning: `no plan to judge: the planning call failed (${plan.error?.message ?? 'unknown error'})`,
    };
    return {
      status: 'not_judged',
      judge: judge.id,
      judgement,
      usage: null,
      cached: false,
      notes: ['planning call failed; not sent to the judge'],
    };
  }
  const parsed: ParsedAnswer = plan.parsed ?? {
    kind: 'parse_error',
    message: plan.error?.message ?? 'the plan could not be read',
  };
  const findings = runChecks(caseItem, parsed);
  const result = await judge.judge(
    {
      case: caseItem,
      plannerPrompt: draftPlanPrompt(context),
      rawAnswer: plan.text,
      parsed,
      findings,
      repeat,
    },
    signal,
  );
  const guarded = guardParseFailure(result.outcome, parsed);
  return {
    status: result.outcome.kind === 'unjudged' ? 'judge_error' : 'ok',
    judge: judge.id,
    judgement: judgementOf(guarded.outcome, 'holistic_planning'),
    usage: result.usage,
    cached: result.cached,
    notes: guarded.notes,
  };
}
