/**
 * The (model, judge) groups of a report: which runs feed each, their comparability tags and
 * totals with failure reasons, and their usage and cost from the manifests. Pure.
 */
import { failureCounts, isCorrect, type FailureCounts } from '../metrics/correctness-rate.js';
import type { ResultRow } from '../metrics/result-row.js';
import type { groupByModelJudge } from '../metrics/tables.js';
import type { Manifest } from '../pipeline/manifest.js';
import {
  classifyGroups,
  comparabilityProfile,
  groupKey,
  type Comparability,
} from './comparability.js';
import { protocolOf, type ReportRunInput } from './report-runs.js';
import { endpointsOf, usageRow, type UsageSection } from './usage.js';

/** The totals behind one (model, judge) row of every table. */
export interface GroupSummary extends FailureCounts {
  model: string;
  judge: string;
  correct: number;
  /** Judgements whose planner answer was read and judged (neither side failed). */
  ok: number;
  /** Why planner calls, answers or verdicts failed, most frequent first. */
  failure_reasons: FailureReasonCount[];
  /** Comparability tag (A, B, …): rows with different tags are not directly comparable. */
  tag: string;
  runs: string[];
}

/** How often one failure reason occurred, with one example message. */
export interface FailureReasonCount {
  reason: string;
  count: number;
  example: string;
}

/** Failure reasons of some rows, most frequent first (ties in first-seen order). */
export function failureReasons(rows: readonly ResultRow[]): FailureReasonCount[] {
  const byReason = new Map<string, FailureReasonCount>();
  for (const row of rows) {
    if (!row.failure) continue;
    const entry = byReason.get(row.failure.key);
    if (entry) entry.count += 1;
    else
      byReason.set(row.failure.key, {
        reason: row.failure.key,
        count: 1,
        example: row.failure.message,
      });
  }
  return [...byReason.values()].sort((a, b) => b.count - a.count);
}

/** One (model, judge) group of rows. */
export type Group = ReturnType<typeof groupByModelJudge>[number];

/** The indexes of the runs each (model, judge) draws rows from. */
export function runIndexer(
  rowsByRun: readonly ResultRow[][],
): (model: string, judge: string) => number[] {
  const runsOfGroup = new Map<string, Set<number>>();
  rowsByRun.forEach((rows, index) => {
    for (const row of rows) {
      const key = groupKey(row.model, row.judge);
      if (!runsOfGroup.has(key)) runsOfGroup.set(key, new Set());
      runsOfGroup.get(key)!.add(index);
    }
  });
  return (model, judge) => [...(runsOfGroup.get(groupKey(model, judge)) ?? [])];
}

/** The comparability tags and the totals of every (model, judge). */
export function summarizeGroups(
  runs: readonly ReportRunInput[],
  groups: readonly Group[],
  runIndexes: (model: string, judge: string) => number[],
): { comparability: Comparability; summaries: GroupSummary[] } {
  const comparability = classifyGroups(
    groups.map((group) => {
      const indexes = runIndexes(group.model, group.judge);
      return {
        model: group.model,
        judge: group.judge,
        profile: comparabilityProfile(
          group.judge,
          group.rows,
          indexes.map((index) => protocolOf(runs[index]!.manifest)),
          indexes.map((index) => runs[index]!.manifest?.dataset?.content_hash ?? 'unknown'),
        ),
      };
    }),
  );
  const summaries: GroupSummary[] = groups.map((group) => ({
    model: group.model,
    judge: group.judge,
    ...failureCounts(group.rows),
    correct: group.rows.filter(isCorrect).length,
    ok: group.rows.filter((row) => row.plannerStatus === 'ok' && row.judgeStatus === 'ok').length,
    failure_reasons: failureReasons(group.rows),
    tag: comparability.tags[groupKey(group.model, group.judge)] ?? 'A',
    runs: runIndexes(group.model, group.judge).map((index) => runs[index]!.dir),
  }));
  return { comparability, summaries };
}

/** Tokens and cost per (model, judge), from the manifests when every run of the group has one for exactly its model. */
export function usageSection(
  runs: readonly ReportRunInput[],
  groups: readonly Group[],
  summaries: readonly GroupSummary[],
  runIndexes: (model: string, judge: string) => number[],
): UsageSection {
  const groupManifests = (model: string, judge: string) => {
    const manifests = runIndexes(model, judge).map((index) => runs[index]!.manifest);
    return manifests.every((manifest) => manifest?.identity?.tested_model === model)
      ? (manifests as Manifest[])
      : [];
  };
  return {
    rows: summaries.map((group, index) =>
      usageRow(
        group.model,
        group.judge,
        groups[index]!.rows,
        group.correct,
        groupManifests(group.model, group.judge),
      ),
    ),
    endpoints: endpointsOf(runs.map((run) => run.manifest)),
    pricesAsOf:
      runs
        .map((run) => run.manifest?.usage?.prices_as_of)
        .find((date): date is string => typeof date === 'string') ?? null,
  };
}
