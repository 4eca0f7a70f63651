/**
 * `apb exec --env tau2:retail,tau2:airline,tau2:telecom --mode …` as a library function: one model
 * run per environment (`runModelExecution`), each in its own run directory `OUT/<env>/` (its own
 * lock, identity, resume and reports, as a one-environment run), then the scores and reports of
 * all of them pooled in `OUT/`: Table 3 with each environment's rows, the floors, and the pooled
 * `tau2` row the paper's 200-task row is compared with.
 */
import path from 'node:path';
import type { Environment, ExecTask } from '../execution/environment.js';
import type { ExecScores } from '../execution/exec-scores.js';
import { Budget, costOfCall } from '../pipeline/budget.js';
import { writeExecOutputs } from '../report/write-exec-reports.js';
import {
  runModelExecution,
  type ExecStatus,
  type ModelExecutionHooks,
  type ModelExecutionSpec,
  type ModelExecutionSummary,
} from './exec-model.js';

/** One environment of the run and its selected tasks. */
export interface EnvSelection {
  environment: Environment;
  tasks: readonly ExecTask[];
}

/** Several environments under one set of modes, models and knobs, pooled in `outDir`. */
export interface ModelExecutionsSpec extends Omit<ModelExecutionSpec, 'environment' | 'tasks'> {
  /** Run in this order; each into `outDir/<envDirName(id)>/`. */
  selections: readonly EnvSelection[];
}

/** One environment's run, as `runModelExecution` summed it up. */
export interface EnvironmentExecution {
  env: string;
  dir: string;
  summary: ModelExecutionSummary;
  wallMs: number;
}

export interface ModelExecutionsHooks extends ModelExecutionHooks {
  /** Told as each environment's run ends, before the next one starts. */
  onEnvironment?(done: EnvironmentExecution): void;
}

/** What the runs did, one by one, and what was pooled. */
export interface ModelExecutionsSummary {
  /**
   * The environments that ran, in order; an interrupted or budget-stopped one is the last (no next
   * one starts).
   */
  environments: EnvironmentExecution[];
  /**
   * The pooled scores written into `outDir`; null when a run was interrupted or stopped by the
   * budget (nothing pooled).
   */
  scores: ExecScores | null;
  /** The first status of an environment that is not `complete`, else `complete`. */
  status: ExecStatus;
  agent: string;
  judge: string;
  /** 429s the endpoints answered, summed over the environments (null when none was called). */
  rateLimited: number | null;
  interrupted: boolean;
}

/** `tau2:retail` → `tau2-retail`: the environment's sub-directory. */
export const envDirName = (id: string) => id.replace(/[^A-Za-z0-9._-]+/g, '-');

/** Runs each environment into `outDir/<env>/`, then writes the pooled scores and reports. */
export async function runModelExecutions(
  spec: ModelExecutionsSpec,
  hooks: ModelExecutionsHooks = {},
): Promise<ModelExecutionsSummary> {
  const { selections, ...common } = spec;
  // One --max-cost for the whole command, not one per environment.
  const budget = spec.budget ?? (spec.maxCost ? new Budget(spec.maxCost) : undefined);
  const environments: EnvironmentExecution[] = [];
  for (const { environment, tasks } of selections) {
    const started = Date.now();
    const dir = path.join(spec.outDir, envDirName(environment.id));
    const summary = await runModelExecution(
      { ...common, ...(budget ? { budget } : {}), environment, tasks, outDir: dir },
      hooks,
    );
    const done = { env: environment.id, dir, summary, wallMs: Date.now() - started };
    environments.push(done);
    hooks.onEnvironment?.(done);
    // Interrupted or out of budget: the next environment does not start, and a partial pool is
    // not written (the pooled row would silently lack whole domains).
    if (summary.run.interrupted || summary.status === 'stopped-budget')
      return pooledSummary(spec, environments, null);
  }
  const scores = await writeExecOutputs(spec.outDir, costOfCall, {
    comparePaper: spec.comparePaper,
    sources: environments.map((done) => done.dir),
  });
  return pooledSummary(spec, environments, scores);
}

/** The pooled status, players and 429s of the environments' runs. */
function pooledSummary(
  spec: ModelExecutionsSpec,
  environments: EnvironmentExecution[],
  scores: ExecScores | null,
): ModelExecutionsSummary {
  const summaries = environments.map((done) => done.summary);
  const limited = summaries.flatMap((summary) =>
    summary.rateLimited === null ? [] : [summary.rateLimited],
  );
  return {
    environments,
    scores,
    status: summaries.find((summary) => summary.status !== 'complete')?.status ?? 'complete',
    agent: scores?.players?.agents[0] ?? spec.model,
    judge: scores?.players?.plan_judges.join(', ') || spec.judge,
    rateLimited: limited.length > 0 ? limited.reduce((sum, count) => sum + count, 0) : null,
    interrupted: summaries.some((summary) => summary.run.interrupted),
  };
}
