/**
 * `broken` (paper §3.1 "Tool-Broken Planning", B.4.2, Fig. 13, F.3): in a source trajectory, a
 * tool that already worked earlier in the trajectory fails on a later call — that call's return is
 * replaced by an error —, a functional replacement with a distinct
 * name joins the tools, and the reference next step repeats the call through the replacement.
 * Without a model the replacement is the documented renamed equivalent (names.ts). Rules:
 * docs/construction.md ("broken").
 */
import { effectOfCall } from '../dataset/tool-effect.js';
import {
  caseRecord,
  sourceFields,
  chainNodesOf,
  prefixEntry,
  referenceStepOf,
  sourceAttachments,
  type ConstructedCase,
} from './case-record.js';
import type { ConstructionModel } from './model.js';
import { NameSet, renamedEquivalent } from './names.js';
import { brokenPrompt, readReplacementReply } from './prompts/broken.js';
import { randomFor } from './random.js';
import {
  stepsOf,
  stepSucceeded,
  type SourceRecord,
  type SourceTool,
  type TrajectoryStep,
} from './source-record.js';
import { mapInOrder, type Skip, type StepContext, type StepResult } from './step.js';

/** Error returns a broken tool answers with (`{tool}` is its name); one is drawn per case. */
export const BROKEN_ERRORS = [
  'Error: {tool} failed with HTTP 503 Service Unavailable: the upstream service is not responding.',
  'Error: {tool} timed out after 30 seconds without a response.',
  'Error: {tool} returned HTTP 500 Internal Server Error.',
  'Error: {tool} is unavailable (HTTP 410 Gone: this endpoint has been retired).',
];

/** Why a call was chosen as the critical one. */
type Tier = 'data-flow' | 'state-changing' | 'any';

/** Scalar values (strings of 3+ characters, numbers) anywhere in a call's arguments. */
function scalars(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && value.trim().length >= 3) out.push(value.trim());
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) scalars(item, out);
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) scalars(item, out);
  return out;
}

/** True when a later step uses a value that this step's return produced (the trajectory depends on it). */
function feedsLaterSteps(step: TrajectoryStep, later: readonly TrajectoryStep[]): boolean {
  const output = step.returns[0]?.content;
  if (!output) return false;
  return later.some((next) =>
    next.calls.some((call) => scalars(call.arguments).some((value) => output.includes(value))),
  );
}

/**
 * The critical step: a successful single-call step whose tool already returned successfully
 * earlier in the trajectory (F.3: the tool worked, then breaks — so the planner cannot tell from
 * the tool list alone that it is unreliable), preferring one whose output later steps use, then a
 * state-changing one, then any; drawn with the seed. Null when no tool is reused after a success.
 */
export function criticalStep(
  steps: readonly TrajectoryStep[],
  tools: readonly SourceTool[],
  seed: number,
  recordId: string,
): { step: TrajectoryStep; tier: Tier } | null {
  const reused = steps.filter(
    (step, index) =>
      step.calls.length === 1 &&
      stepSucceeded(step) &&
      steps
        .slice(0, index)
        .some(
          (earlier) =>
            stepSucceeded(earlier) &&
            earlier.calls.some((call) => call.name === step.calls[0]!.name),
        ),
  );
  const tiers: [Tier, TrajectoryStep[]][] = [
    ['data-flow', reused.filter((step) => feedsLaterSteps(step, steps.slice(step.index + 1)))],
    [
      'state-changing',
      reused.filter((step) => effectOfCall(tools, step.calls[0]!.name) === 'state-changing'),
    ],
    ['any', reused],
  ];
  const [tier, candidates] = tiers.find(([, list]) => list.length > 0) ?? ['any', []];
  if (candidates.length === 0) return null;
  return { step: randomFor(seed, 'broken', recordId, 'critical').pick(candidates), tier };
}

/** The deterministic replacement: the broken tool under a renamed-equivalent name, same description and parameters. */
export function renamedReplacement(broken: SourceTool, tools: readonly SourceTool[]): SourceTool {
  return {
    ...broken,
    name: renamedEquivalent(broken.name, new NameSet(tools.map((tool) => tool.name))),
  };
}

async function replacementFor(
  record: SourceRecord,
  broken: SourceTool,
  call: unknown,
  model: ConstructionModel | undefined,
) {
  const fallback = renamedReplacement(broken, record.tools);
  if (!model)
    return { tool: fallback, from: 'deterministic-rename', promptVersion: null, failure: null };
  const prompt = brokenPrompt(record, broken);
  const reply = await model.ask(prompt);
  const read = reply.ok
    ? readReplacementReply(reply.value, record, call)
    : { ok: false as const, reason: reply.reason };
  if (read.ok)
    return { tool: read.tool, from: 'model', promptVersion: prompt.promptVersion, failure: null };
  return {
    tool: fallback,
    from: 'deterministic-rename',
    promptVersion: prompt.promptVersion,
    failure: read.reason,
  };
}

/** The record's broken call and the steps around it, or why it has none. */
function breakPoint(
  record: SourceRecord,
  context: StepContext,
): { steps: TrajectoryStep[]; step: TrajectoryStep; tier: Tier; broken: SourceTool } | string {
  if (record.tool_returns === 'absent')
    return 'tool returns absent (not executed): the prefix would show calls without returns';
  const steps = stepsOf(record);
  const critical = criticalStep(steps, record.tools, context.seed, record.id);
  if (!critical)
    return 'no tool to break: no successful single-call step reuses a tool that already worked earlier (F.3)';
  const call = critical.step.calls[0]!;
  const broken = record.tools.find((tool) => tool.name === call.name);
  if (!broken) return `the critical call's tool ${call.name} is not listed`;
  return { steps, step: critical.step, tier: critical.tier, broken };
}

/** The case's record: the prefix up to the broken call and its error, the reference calling the replacement from there on. */
function brokenRecord(
  record: SourceRecord,
  at: { steps: TrajectoryStep[]; step: TrajectoryStep },
  replacement: SourceTool,
  errorText: string,
  tools: SourceTool[],
): Record<string, unknown> {
  const { steps, step } = at;
  const call = step.calls[0]!;
  // From the broken call on, the reference calls the replacement wherever it called the broken tool.
  const renamed = (later: TrajectoryStep): TrajectoryStep => ({
    ...later,
    calls: later.calls.map((item) =>
      item.name === call.name ? { ...item, name: replacement.name } : item,
    ),
  });
  const remaining = steps.slice(step.index).map((later) => referenceStepOf(renamed(later), tools));
  const id = `${record.id}-broken`;
  return caseRecord({
    id,
    split: 'step_wise_tool_broken',
    ...sourceFields(record),
    tools,
    toolChain: [
      ...steps.slice(0, step.index).flatMap((earlier) => chainNodesOf(earlier, record.tools)),
      ...steps.slice(step.index).flatMap((later) => chainNodesOf(renamed(later), tools)),
    ],
    horizon: 1,
    prefix: [
      ...record.messages.slice(0, step.messageIndex + 1).map(prefixEntry),
      { role: 'tool', tool_call_id: call.id, name: call.name, content: errorText },
    ],
    groundTruthSteps: remaining.slice(0, 1),
    remainingSteps: remaining,
    brokenToolName: call.name,
    replacementTool: replacement,
    baseCaseId: id,
    steps: steps.length,
  });
}

async function brokenCase(
  record: SourceRecord,
  context: StepContext,
): Promise<ConstructedCase | Skip> {
  const at = breakPoint(record, context);
  if (typeof at === 'string') return { step: 'broken', parent_id: record.id, reason: at };
  const call = at.step.calls[0]!;
  const replacement = await replacementFor(record, at.broken, call.arguments, context.model);
  const random = randomFor(context.seed, 'broken', record.id, 'case');
  const errorText = random.pick(BROKEN_ERRORS).replace('{tool}', call.name);
  const tools = [...record.tools];
  tools.splice(random.int(0, tools.length), 0, replacement.tool);
  const id = `${record.id}-broken`;
  return {
    split: 'step_wise_tool_broken',
    record: brokenRecord(record, at, replacement.tool, errorText, tools),
    meta: {
      id,
      step: 'broken',
      seed: context.seed,
      parent_id: record.id,
      generated: {
        broken_step: at.step.index,
        critical_because: at.tier,
        error_return: errorText,
        replacement: replacement.tool.name,
        replacement_from: replacement.from,
        ...(replacement.failure ? { model_failure: replacement.failure } : {}),
      },
      model: replacement.promptVersion ? (context.model?.id ?? null) : null,
      prompt_version: replacement.promptVersion,
    },
    attachments: sourceAttachments(record, context.sourceRoot),
  };
}

/** Tool-broken cases of every source record (one per record). */
export async function constructBroken(
  records: readonly SourceRecord[],
  context: StepContext,
): Promise<StepResult> {
  const made = await mapInOrder(records, context, (record) => brokenCase(record, context));
  return {
    cases: made.filter((item): item is ConstructedCase => 'record' in item),
    skipped: made.filter((item): item is Skip => !('record' in item)),
  };
}
