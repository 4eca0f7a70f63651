/**
 * `augment` (paper B.1, Fig. 7): seed tasks made longer with a model — the query enriched, the tool
 * set expanded, the trajectory extended by simulated steps — to the paper's targets (on average
 * +4.5 steps and +5.6 tools per task). Real-traffic and OpenCUA records are kept as they are, as
 * the paper kept them. Source records in, source records out (then `check` as usual).
 */
import type { MetaLine } from './case-record.js';
import { REAL_TRAFFIC_SOURCES } from './pii.js';
import {
  augmentPrompt,
  readAugmentReply,
  type AugmentStep,
  type AugmentTargets,
} from './prompts/augment.js';
import { randomFor } from './random.js';
import {
  stepsOf,
  type SourceMessage,
  type SourceRecord,
  type SourceTool,
} from './source-record.js';
import { mapInOrder, type StepContext } from './step.js';

/** How much to grow: B.1's +4.5 steps and +5.6 tools per task on average, or up to a length. */
export interface AugmentMeans {
  addSteps: number;
  addTools: number;
  /** When set, each task grows to this many steps on average instead (at least one step more). */
  targetSteps?: number | null;
}

/** B.1's growth per task on average: +4.5 reasoning steps, +5.6 tools. */
export const DEFAULT_AUGMENT: AugmentMeans = { addSteps: 4.5, addTools: 5.6 };

/** Sources the paper kept unaugmented ("sufficiently representative of real-world complexity"). */
export const KEPT_SOURCES = [...REAL_TRAFFIC_SOURCES, 'opencua'];

/**
 * One record's targets: the floor or the ceiling of each mean, seeded so that the means hold
 * (`steps`: the record's own step count, for `targetSteps`).
 */
export function augmentTargets(
  seed: number,
  id: string,
  means: AugmentMeans,
  steps = 0,
): AugmentTargets {
  const random = randomFor(seed, 'augment', id, 'targets');
  const draw = (mean: number) => Math.floor(mean) + (random.next() < mean % 1 ? 1 : 0);
  const add = means.targetSteps ? Math.max(1, means.targetSteps - steps) : means.addSteps;
  return { steps: Math.max(1, draw(add)), tools: Math.max(0, draw(means.addTools)) };
}

/** The record with the extension: new tools appended, new steps after the last tool return (later turns stay last). */
export function extendRecord(
  record: SourceRecord,
  query: string,
  tools: readonly SourceTool[],
  steps: readonly AugmentStep[],
): SourceRecord {
  const added: SourceMessage[] = steps.flatMap((step, index): SourceMessage[] => {
    const id = `${record.id}-aug-${index + 1}`;
    return [
      {
        role: 'assistant',
        content: step.thought,
        tool_calls: [{ id, name: step.tool, arguments: step.arguments }],
      },
      { role: 'tool', tool_call_id: id, name: step.tool, content: step.result, error: false },
    ];
  });
  const lastReturn = record.messages.map((message) => message.role).lastIndexOf('tool');
  const at = lastReturn < 0 ? record.messages.length : lastReturn + 1;
  return {
    ...record,
    query,
    tools: [...record.tools, ...tools],
    messages: [...record.messages.slice(0, at), ...added, ...record.messages.slice(at)],
    tool_returns: 'simulated',
  };
}

type Augmented = { record: SourceRecord; meta: MetaLine };

async function augmentOne(
  record: SourceRecord,
  means: AugmentMeans,
  context: StepContext,
): Promise<Augmented> {
  const meta = (generated: Record<string, unknown>, promptVersion: string | null): MetaLine => ({
    id: record.id,
    step: 'augment',
    seed: context.seed,
    parent_id: record.id,
    generated,
    model: promptVersion ? context.model!.id : null,
    prompt_version: promptVersion,
  });
  if (KEPT_SOURCES.includes(record.source ?? ''))
    return { record, meta: meta({ augmented: false, kept: `source ${record.source}` }, null) };
  const targets = augmentTargets(context.seed, record.id, means, stepsOf(record).length);
  const prompt = augmentPrompt(record, targets);
  const reply = await context.model!.ask(prompt);
  const read = reply.ok
    ? readAugmentReply(reply.value, record, targets)
    : { ok: false as const, reason: reply.reason };
  if (!read.ok)
    return {
      record,
      meta: meta({ augmented: false, targets, model_failure: read.reason }, prompt.promptVersion),
    };
  const steps = record.messages.filter((message) => message.role === 'tool').length;
  const generated = {
    augmented: true,
    targets,
    added_steps: read.steps.length,
    added_tools: read.tools.map((tool) => tool.name),
    new_tools_used: new Set(
      read.steps.map((step) => step.tool).filter((name) => read.tools.some((t) => t.name === name)),
    ).size,
    simulated_from_return: steps,
    original_query: record.query,
    original_tool_returns: record.tool_returns,
  };
  return {
    record: extendRecord(record, read.query, read.tools, read.steps),
    meta: meta(generated, prompt.promptVersion),
  };
}

/** Every record augmented (or kept, with the reason in its meta line), in input order. */
export async function constructAugment(
  records: readonly SourceRecord[],
  context: StepContext,
  means: AugmentMeans = DEFAULT_AUGMENT,
): Promise<{ records: SourceRecord[]; meta: MetaLine[] }> {
  const made = await mapInOrder(records, context, (record) => augmentOne(record, means, context));
  return { records: made.map((item) => item.record), meta: made.map((item) => item.meta) };
}
