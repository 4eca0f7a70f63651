/**
 * `apb exec --retry-errors`: before a resume, takes out of an exec run directory what an infrastructure error left
 * behind, so the resume makes it again — an execution that ended on `infrastructure_error`; an opening whose first
 * user message failed (with its executions); a draft plan whose call failed (with the refined plan and the
 * plan-first and refine executions that ran without a plan); a refinement whose critique or revision call failed
 * (with the refine execution). What stays is kept byte for byte: an opening keeps its first user message, so the
 * modes of a (task, trial) still share it, and finished executions are never run again.
 */
import { existsSync } from 'node:fs';
import { writeFileAtomic } from '../atomic-write.js';
import { parseUntrustedJson } from '../json-depth.js';
import { readLines } from '../jsonl-lines.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { dropTornLine } from '../rundir/jsonl-store.js';
import { executionKey, openingKey } from './exec-store.js';
import type { RefinedPlanRecord } from './plans.js';
import type { ExecutionLine, OpeningLine } from './records.js';

/** What `--retry-errors` took out. */
export interface RetryDropped {
  executions: number;
  /** Openings removed (their first user message failed) or cut back (a failed plan removed). */
  openings: number;
}

/** The lines of a file, latest per key (as resume reads them); a line that is not JSON is kept as it is. */
async function latestLines<T>(
  file: string,
  keyOf: (line: T) => string,
  limits: Limits,
): Promise<Map<string, { value: T | null; text: string }>> {
  const out = new Map<string, { value: T | null; text: string }>();
  if (!existsSync(file)) return out;
  for await (const { line, text } of readLines(file, undefined, limits)) {
    let value: T | null = null;
    try {
      value = parseUntrustedJson(text, limits.jsonDepth) as T;
    } catch {
      value = null;
    }
    out.set(value && typeof value === 'object' ? keyOf(value) : `bad line ${line}`, {
      value,
      text,
    });
  }
  return out;
}

/** A refinement that did not come back because a call failed (an unreadable critique is an outcome, not a failure). */
function refinementFailed(plan: RefinedPlanRecord): boolean {
  return plan.rounds.some(
    (round) => round.critique.status === 'error' || round.revision?.status === 'error',
  );
}

/** The opening as a resume should see it (null: made again), and the modes of its (task, trial) to run again. */
function cutBack(opening: OpeningLine): { opening: OpeningLine | null; rerun: string[] } {
  if (opening.first_user_message === null)
    return { opening: null, rerun: ['direct', 'plan-first', 'refine'] };
  if (opening.draft?.plan.status === 'error')
    return { opening: { ...opening, draft: null, refined: null }, rerun: ['plan-first', 'refine'] };
  if (opening.refined && refinementFailed(opening.refined.plan))
    return { opening: { ...opening, refined: null }, rerun: ['refine'] };
  return { opening, rerun: [] };
}

/** Rewrites an exec run directory's `plans.jsonl` and `executions.jsonl` without what infrastructure errors left; returns the counts. */
export async function dropInfrastructureErrors(
  plansPath: string,
  executionsPath: string,
  limits: Limits = DEFAULT_LIMITS,
): Promise<RetryDropped> {
  dropTornLine(plansPath);
  dropTornLine(executionsPath);
  const openings = await latestLines<OpeningLine>(
    plansPath,
    (line) => openingKey(line.task_id, line.trial),
    limits,
  );
  const executions = await latestLines<ExecutionLine>(
    executionsPath,
    (line) => executionKey(line.task_id, line.mode, line.trial),
    limits,
  );
  const rerun = new Set<string>();
  const keptOpenings: string[] = [];
  let changedOpenings = 0;
  for (const { value, text } of openings.values()) {
    if (!value) {
      keptOpenings.push(text);
      continue;
    }
    const { opening, rerun: modes } = cutBack(value);
    for (const mode of modes) rerun.add(executionKey(value.task_id, mode, value.trial));
    if (opening !== value) changedOpenings += 1;
    if (opening) keptOpenings.push(opening === value ? text : JSON.stringify(opening));
  }
  const keptExecutions: string[] = [];
  let droppedExecutions = 0;
  for (const [key, { value, text }] of executions) {
    if (value && (value.termination === 'infrastructure_error' || rerun.has(key)))
      droppedExecutions += 1;
    else keptExecutions.push(text);
  }
  if (changedOpenings > 0)
    writeFileAtomic(plansPath, keptOpenings.map((text) => `${text}\n`).join(''));
  if (droppedExecutions > 0)
    writeFileAtomic(executionsPath, keptExecutions.map((text) => `${text}\n`).join(''));
  return { executions: droppedExecutions, openings: changedOpenings };
}
