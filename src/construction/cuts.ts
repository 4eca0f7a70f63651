/**
 * `cuts`: step-wise cases from source trajectories (paper §3.1 "Step-wise Planning"). A cut after j
 * executed steps gives the prefix τ1:j with its tool returns, the next k steps as ground truth, and
 * every step from j on as the remaining reference. k = 1 is cut at each of `ratios` (the middle by
 * default; early / middle / late for Table 15); each of `horizons` is cut in the middle. As the
 * release (900 = 300 parents × next-1/2/3, a third each), a record is used only when every asked
 * cut fits, and at most `maxParents` records (a seeded sample) are cut. Rules: docs/construction.md.
 */
import type { Stage } from '../dataset/case.js';
import {
  caseRecord,
  sourceFields,
  sourceAttachments,
  chainNodesOf,
  prefixEntry,
  referenceStepOf,
  type ConstructedCase,
} from './case-record.js';
import { stepsOf, stepSucceeded, type SourceRecord, type TrajectoryStep } from './source-record.js';
import { sampleByHash } from './random.js';
import type { Skip, StepContext, StepResult } from './step.js';

/** Options of the cuts step. */
export interface CutsOptions {
  /** Cut points of next-1 cases, as shares of the trajectory's steps (default 0.25, 0.5, 0.75). */
  ratios: number[];
  /** Horizons k > 1, each cut in the middle (default 2, 3). */
  horizons: number[];
  /** Also cut records whose tool returns are absent (their prefixes then show no returns). */
  allowUnexecuted: boolean;
  /** Cut a record only when every asked (ratio, horizon) cut fits, so the horizons stay balanced. */
  completeOnly: boolean;
  /** At most this many records are cut (a seeded sample, by hash of the record id); null = all. */
  maxParents: number | null;
}

/** The paper's cuts: the middle of each of 300 trajectories at next-1, next-2 and next-3. */
export const DEFAULT_CUTS: CutsOptions = {
  ratios: [0.5],
  horizons: [2, 3],
  allowUnexecuted: false,
  completeOnly: true,
  maxParents: 300,
};

/** Early / middle / late next-1 cuts (paper Table 15), with the same middle next-2/3 cuts. */
export const STAGE_RATIOS = [0.25, 0.5, 0.75];

/** The stage a ratio names: the bands of `dataset/facets.ts` (below 0.375 early, up to 0.625 middle, late above). */
export function stageOfRatio(ratio: number): Stage {
  if (ratio < 0.375) return 'early';
  return ratio <= 0.625 ? 'middle' : 'late';
}

interface Cut {
  ratio: number;
  horizon: number;
  index: number;
  /** Where the ratio pointed before the cut moved off failed ground-truth steps. */
  wanted: number;
}

/**
 * The cut index for a ratio: round(ratio · n) within [0, n − k], moved to the nearest index (the
 * earlier one on a tie) whose k ground-truth steps all succeeded, since a reference next step that
 * the environment rejects is not a step to predict. Null when no index qualifies.
 */
export function cutIndex(
  steps: readonly TrajectoryStep[],
  ratio: number,
  horizon: number,
): { index: number; wanted: number } | null {
  const last = steps.length - horizon;
  if (last < 0) return null;
  const wanted = Math.min(last, Math.max(0, Math.round(ratio * steps.length)));
  const usable = (index: number) =>
    index >= 0 && index <= last && steps.slice(index, index + horizon).every(stepSucceeded);
  for (let distance = 0; distance <= steps.length; distance++) {
    if (usable(wanted - distance)) return { index: wanted - distance, wanted };
    if (usable(wanted + distance)) return { index: wanted + distance, wanted };
  }
  return null;
}

/** The cuts of one record: one per (ratio, horizon); where two land on the same place, the nearer ratio keeps it. */
function cutsOf(steps: readonly TrajectoryStep[], options: CutsOptions): Cut[] {
  const wanted = [
    ...options.ratios.map((ratio) => ({ ratio, horizon: 1 })),
    ...options.horizons
      .filter((horizon) => horizon > 1)
      .map((horizon) => ({ ratio: 0.5, horizon })),
  ];
  const kept = new Map<string, Cut>();
  for (const { ratio, horizon } of wanted) {
    const found = cutIndex(steps, ratio, horizon);
    if (!found) continue;
    const cut = { ratio, horizon, ...found };
    const key = `${cut.index}/${horizon}`;
    const earlier = kept.get(key);
    if (
      !earlier ||
      Math.abs(ratio * steps.length - cut.index) <
        Math.abs(earlier.ratio * steps.length - cut.index)
    )
      kept.set(key, cut);
  }
  return [...kept.values()].sort((a, b) => a.horizon - b.horizon || a.index - b.index);
}

function cutCase(
  record: SourceRecord,
  steps: readonly TrajectoryStep[],
  cut: Cut,
  context: StepContext,
): ConstructedCase {
  const stage = stageOfRatio(cut.ratio);
  const id = `${record.id}-sw-k${cut.horizon}-c${cut.index}`;
  const cutAt = steps[cut.index]!.messageIndex;
  const reference = steps.slice(cut.index).map((step) => referenceStepOf(step, record.tools));
  return {
    split: 'step_wise_planning',
    record: caseRecord({
      id,
      split: 'step_wise_planning',
      ...sourceFields(record),
      toolChain: steps.flatMap((step) => chainNodesOf(step, record.tools)),
      horizon: cut.horizon,
      prefix: record.messages.slice(0, cutAt).map(prefixEntry),
      groundTruthSteps: reference.slice(0, cut.horizon),
      remainingSteps: reference,
      stage,
      baseCaseId: id,
      steps: steps.length,
    }),
    attachments: sourceAttachments(record, context.sourceRoot),
    meta: {
      id,
      step: 'cuts',
      seed: context.seed,
      parent_id: record.id,
      generated: {
        cut_index: cut.index,
        ratio: cut.ratio,
        steps: steps.length,
        horizon: cut.horizon,
        stage,
        ...(cut.wanted !== cut.index
          ? { moved_from: cut.wanted, why: 'a ground-truth step failed in the environment' }
          : {}),
        tool_returns: record.tool_returns,
      },
      model: null,
      prompt_version: null,
    },
  };
}

/** How many cuts a record must give to count as complete: one per ratio and per horizon above 1. */
const wantedCuts = (options: CutsOptions) =>
  options.ratios.length + options.horizons.filter((horizon) => horizon > 1).length;

/** Step-wise cases of every record, or of a seeded sample of `maxParents` complete records. */
export function constructCuts(
  records: readonly SourceRecord[],
  options: CutsOptions,
  context: StepContext,
): StepResult {
  const skipped: Skip[] = [];
  const skip = (record: SourceRecord, reason: string) =>
    skipped.push({ step: 'cuts', parent_id: record.id, reason });
  const eligible: Array<{ record: SourceRecord; steps: TrajectoryStep[]; cuts: Cut[] }> = [];
  for (const record of records) {
    const steps = stepsOf(record);
    if (record.tool_returns === 'absent' && !options.allowUnexecuted) {
      skip(
        record,
        'tool returns absent (not executed): a prefix would show calls without returns (use --allow-unexecuted)',
      );
      continue;
    }
    const cuts = cutsOf(steps, options);
    if (cuts.length === 0)
      skip(
        record,
        `no cut possible (${steps.length} step(s), or every candidate ground truth failed)`,
      );
    else if (options.completeOnly && cuts.length < wantedCuts(options))
      skip(
        record,
        `only ${cuts.length} of ${wantedCuts(options)} cuts fit (${steps.length} step(s)): a record is cut only when every horizon fits, so they stay balanced`,
      );
    else eligible.push({ record, steps, cuts });
  }
  const chosen =
    options.maxParents === null
      ? eligible
      : sampleByHash(
          eligible,
          options.maxParents,
          context.seed,
          'cuts/parents',
          (item) => item.record.id,
        );
  for (const item of eligible)
    if (!chosen.includes(item))
      skip(item.record, `not among the ${options.maxParents} sampled parents`);
  const cases = chosen.flatMap(({ record, steps, cuts }) =>
    cuts.map((cut) => cutCase(record, steps, cut, context)),
  );
  return { cases, skipped };
}
