/**
 * `holistic` (paper B.3, Fig. 11): a validated step-wise trajectory → a holistic case (a query made
 * explicit, the plan, the tool chain without observations). With a model, the model rewrites the
 * query and distils plan and chain; without one (or when its reply is unusable), a deterministic
 * fallback takes the chain from the trajectory's successful calls and the plan from their reasons,
 * and says so in the case's meta line.
 */
import {
  caseRecord,
  sourceFields,
  sourceAttachments,
  chainNodesOf,
  reasonOf,
  type ChainNode,
  type ConstructedCase,
} from './case-record.js';
import type { ConstructionModel } from './model.js';
import { holisticPrompt, readHolisticReply } from './prompts/holistic.js';
import { stepsOf, stepSucceeded, type SourceRecord } from './source-record.js';
import { mapInOrder, type Skip, type StepContext, type StepResult } from './step.js';

/** What the deterministic fallback derives from a trajectory. */
export interface DerivedPlan {
  plan: string;
  toolChain: ChainNode[];
  /** Steps left out because the environment answered them with an error. */
  droppedSteps: number[];
  reasons: 'trajectory' | 'tool-description' | 'mixed';
}

/** The chain of the trajectory's successful calls and a numbered plan from their reasons; null when no call succeeded. */
export function derivePlan(record: SourceRecord): DerivedPlan | null {
  const steps = stepsOf(record);
  const kept = steps.filter(stepSucceeded);
  if (kept.length === 0) return null;
  const toolChain = kept.flatMap((step) => chainNodesOf(step, record.tools));
  const sources = new Set(
    kept.flatMap((step) => step.calls.map((call) => reasonOf(step, call, record.tools).from)),
  );
  const plan = toolChain
    .map((node, index) => `${index + 1}. ${node.reason.replace(/\s+/g, ' ')} (${node.name})`)
    .join('\n');
  return {
    plan,
    toolChain,
    droppedSteps: steps.filter((step) => !stepSucceeded(step)).map((step) => step.index),
    reasons:
      sources.size > 1 ? 'mixed' : sources.has('trajectory') ? 'trajectory' : 'tool-description',
  };
}

function holisticCase(
  record: SourceRecord,
  content: { query: string; plan: string; toolChain: ChainNode[] },
  meta: { generated: Record<string, unknown>; model: string | null; promptVersion: string | null },
  context: StepContext,
): ConstructedCase {
  const id = `${record.id}-holistic`;
  return {
    split: 'holistic_planning',
    record: caseRecord({
      id,
      split: 'holistic_planning',
      ...sourceFields(record),
      query: content.query,
      plan: content.plan,
      toolChain: content.toolChain,
      baseCaseId: id,
      steps: content.toolChain.length,
    }),
    attachments: sourceAttachments(record, context.sourceRoot),
    meta: {
      id,
      step: 'holistic',
      seed: context.seed,
      parent_id: record.id,
      generated: meta.generated,
      model: meta.model,
      prompt_version: meta.promptVersion,
    },
  };
}

/**
 * B.3's optimality check on a generated reference chain: it must not repeat a call (same tool and
 * arguments) and must not be longer than the trajectory's own successful calls — the executed
 * trajectory already did the task in that many, so a longer reference is not a minimal one. The
 * reason it fails, or null.
 */
export function optimalityProblem(
  chain: readonly ChainNode[],
  trajectory: readonly ChainNode[] | null,
): string | null {
  const seen = new Set<string>();
  for (const node of chain) {
    const key = JSON.stringify([node.name, node.parameter_description]);
    if (seen.has(key)) return `not optimal: ${node.name} is called twice with the same arguments`;
    seen.add(key);
  }
  if (trajectory && chain.length > trajectory.length)
    return `not optimal: ${chain.length} calls where the executed trajectory needed ${trajectory.length}`;
  return null;
}

async function withModel(
  record: SourceRecord,
  model: ConstructionModel,
  fallback: DerivedPlan | null,
  context: StepContext,
): Promise<ConstructedCase | Skip> {
  const prompt = holisticPrompt(record);
  const reply = await model.ask(prompt);
  const parsed = reply.ok
    ? readHolisticReply(reply.value, record)
    : { ok: false as const, reason: reply.reason };
  const problem = parsed.ok
    ? optimalityProblem(parsed.value.toolChain, fallback?.toolChain ?? null)
    : null;
  const read = problem ? { ok: false as const, reason: problem } : parsed;
  if (read.ok) {
    const generated = {
      query: 'model-rewritten',
      plan: 'model',
      tool_chain: 'model',
      original_query: record.query,
    };
    return holisticCase(
      record,
      read.value,
      { generated, model: model.id, promptVersion: prompt.promptVersion },
      context,
    );
  }
  if (!fallback)
    return {
      step: 'holistic',
      parent_id: record.id,
      reason: `model reply unusable (${read.reason}) and no successful call for the fallback`,
    };
  const generated = {
    query: 'original',
    plan: 'deterministic-fallback',
    tool_chain: 'trajectory-calls',
    reasons: fallback.reasons,
    dropped_failed_steps: fallback.droppedSteps,
    model_failure: read.reason,
  };
  return holisticCase(
    record,
    { query: record.query, ...fallback },
    { generated, model: model.id, promptVersion: prompt.promptVersion },
    context,
  );
}

/** Holistic cases of every record. */
export async function constructHolistic(
  records: readonly SourceRecord[],
  context: StepContext,
): Promise<StepResult> {
  const made = await mapInOrder(
    records,
    context,
    async (record): Promise<ConstructedCase | Skip> => {
      const derived = derivePlan(record);
      if (context.model) return withModel(record, context.model, derived, context);
      if (!derived)
        return {
          step: 'holistic',
          parent_id: record.id,
          reason: 'no successful tool call to build a chain from',
        };
      const generated = {
        query: 'original',
        plan: 'deterministic-fallback',
        tool_chain: 'trajectory-calls',
        reasons: derived.reasons,
        dropped_failed_steps: derived.droppedSteps,
      };
      return holisticCase(
        record,
        { query: record.query, ...derived },
        { generated, model: null, promptVersion: null },
        context,
      );
    },
  );
  return {
    cases: made.filter((item): item is ConstructedCase => 'record' in item),
    skipped: made.filter((item): item is Skip => !('record' in item)),
  };
}
