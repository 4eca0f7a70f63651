/**
 * `createPanelJudge`: several judges as one `Judge`. Every member judges the answer (concurrently);
 * the recorded outcome is `aggregateVerdicts` over them, and every member's own result travels in
 * `JudgeResult.members` so the pipeline can store it. Id, version and accounting: docs/judge.md.
 */
import type { Usage } from '../providers/provider.js';
import { versionOf } from '../settings/prompt.js';
import { aggregateVerdicts } from './aggregate.js';
import type { Judge, JudgeInput, JudgeResult, MemberResult } from './judge.js';

/** Bump when the aggregation rules of `aggregate.ts` change: it enters every panel's version. */
export const AGGREGATION_VERSION = 'aggregate-1';

/** The id of a panel: `panel(A+B+C)`, members in the order given (no `|`, so it is safe in Markdown tables). */
export function panelId(memberIds: readonly string[]): string {
  return `panel(${memberIds.join('+')})`;
}

function sumUsage(results: readonly JudgeResult[]): Usage | null {
  let total: Usage | null = null;
  for (const { usage } of results) {
    if (!usage) continue;
    const sum: Usage = {
      inputTokens: (total?.inputTokens ?? 0) + usage.inputTokens,
      outputTokens: (total?.outputTokens ?? 0) + usage.outputTokens,
    };
    if (total?.reasoningTokens !== undefined || usage.reasoningTokens !== undefined)
      sum.reasoningTokens = (total?.reasoningTokens ?? 0) + (usage.reasoningTokens ?? 0);
    if (total?.cachedInputTokens !== undefined || usage.cachedInputTokens !== undefined)
      sum.cachedInputTokens = (total?.cachedInputTokens ?? 0) + (usage.cachedInputTokens ?? 0);
    total = sum;
  }
  return total;
}

/** Creates a panel of at least two distinct judges; its kind is `llm` when any member is an LLM. */
export function createPanelJudge(members: readonly Judge[]): Judge {
  if (members.length < 2)
    throw new RangeError(`a panel needs at least two judges, got ${members.length}`);
  const ids = members.map((member) => member.id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined)
    throw new RangeError(`judge ${duplicate} appears twice in the panel`);
  const llmMembers = members.filter((member) => member.kind === 'llm');
  return {
    id: panelId(ids),
    kind: llmMembers.length > 0 ? 'llm' : 'rules',
    version: versionOf(
      'panel',
      AGGREGATION_VERSION,
      ...members.map((member) => `${member.id}=${member.version}`),
    ),
    async judge(input: JudgeInput, signal?: AbortSignal): Promise<JudgeResult> {
      // A member's fatal error (auth, abort, bug) rejects the panel, as it would a single judge.
      const results = await Promise.all(members.map((member) => member.judge(input, signal)));
      const memberResults: MemberResult[] = members.map((member, index) => ({
        judge: member.id,
        kind: member.kind,
        version: member.version,
        result: results[index]!,
      }));
      const aggregate = aggregateVerdicts(
        memberResults.map((member) => ({ judge: member.judge, outcome: member.result.outcome })),
      );
      // Only calls that reached a model count: rules members make none, cache hits add no tokens.
      const calling = memberResults.filter((member) => member.kind === 'llm');
      return {
        outcome: aggregate.outcome,
        usage: sumUsage(
          calling.filter((member) => !member.result.cached).map((member) => member.result),
        ),
        latencyMs: Math.max(0, ...results.map((result) => result.latencyMs)),
        attempts: results.reduce((sum, result) => sum + result.attempts, 0),
        cached: calling.length > 0 && calling.every((member) => member.result.cached),
        promptVersion: versionOf(
          'panel',
          ...memberResults.map((member) => `${member.judge}=${member.result.promptVersion}`),
        ),
        members: memberResults,
      };
    },
  };
}
