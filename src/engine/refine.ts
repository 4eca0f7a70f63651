/**
 * `apb refine` as a library function: the refined directory's lock, the budget, the reviser,
 * critic and judges behind the provider stack, `refineRun` (pipeline/refine-run.ts) over a
 * finished run's answers, then the scores and reports. The source run is never written.
 */
import { ProviderError, UsageError } from '../errors.js';
import { Budget } from '../pipeline/budget.js';
import { writeRunOutputs } from '../pipeline/outputs.js';
import {
  refineRun,
  type RefineRunDependencies,
  type RefineRunRequest,
  type RefineRunSummary,
} from '../pipeline/refine-run.js';
import { acquireRunLock } from '../rundir/lock.js';
import { writeRunReports } from '../report/write-reports.js';
import { createRunProviders, type EngineOptions } from './providers.js';
import { resolveJudge, type JudgeSamplingFlags } from './resolve.js';

/** The engine knobs a model-calling command shares (limits, retries, timeout, cache). */
export type EngineKnobs = Pick<
  EngineOptions,
  'concurrency' | 'rpm' | 'tpm' | 'timeoutMs' | 'maxRetries' | 'cache' | 'cacheDir'
>;

type Judging = RefineRunRequest['judging'];

/** A refinement: the source and its selection, the setup, the models as specs, the engine knobs. */
export interface RefinementSpec extends Omit<RefineRunRequest, 'judging' | 'concurrency'> {
  testedModel: string;
  /** The tested model's endpoint (null: the provider's default). */
  baseUrl: Judging['baseUrl'];
  /** The critic's endpoint (self mode: the tested model's). */
  criticBaseUrl: Judging['baseUrl'];
  judges: string[];
  judgeBaseUrl: Judging['judgeBaseUrl'];
  protocol: 'paper' | 'official';
  judgeBlind: boolean;
  /** `--judge-…` options of every LLM judge (temperature stays 0). */
  judgeSampling?: JudgeSamplingFlags | null;
  engine: EngineKnobs;
  maxCost?: number;
}

/** Critiques and revises the selected answers into `spec.outDir`, judges them, writes the reports. */
export async function runRefinement(
  spec: RefinementSpec,
  hooks: Pick<RefineRunDependencies, 'reporter' | 'stop' | 'signal' | 'now'> = {},
): Promise<RefineRunSummary> {
  // Checked before the lock, which would create a file in it: the source is never written.
  if (spec.outDir === spec.source.dir)
    throw new UsageError(
      `--out must not be the source run ${spec.source.dir}: apb refine never writes into it`,
    );
  const lock = acquireRunLock(spec.outDir, 'refine');
  const budget = spec.maxCost ? new Budget(spec.maxCost) : undefined;
  const engine = spec.limits ? { ...spec.engine, limits: spec.limits } : spec.engine;
  const providers = createRunProviders({ ...engine, ...(budget ? { budget } : {}) });
  try {
    const reviser = providers.provider(spec.testedModel, spec.baseUrl);
    const critic =
      spec.setup.mode === 'self'
        ? reviser
        : providers.provider(spec.setup.critic, spec.criticBaseUrl);
    const judge = resolveJudge(spec.judges, providers, {
      baseUrl: spec.judgeBaseUrl,
      protocol: spec.protocol,
      blind: spec.judgeBlind,
      ...(spec.judgeSampling ? { sampling: spec.judgeSampling } : {}),
    });
    const summary = await refineRun(
      {
        source: spec.source,
        selection: spec.selection,
        outDir: spec.outDir,
        setup: spec.setup,
        judging: {
          judgeIds: spec.judges,
          judgeVersion: judge.version,
          judgeBaseUrl: spec.judgeBaseUrl,
          judgeBlind: spec.judgeBlind,
          baseUrl: spec.baseUrl,
        },
        concurrency: spec.engine.concurrency,
        retryErrors: spec.retryErrors,
        limits: spec.limits,
      },
      { ...hooks, reviser, critic, judge, lock, ...(budget ? { budget } : {}) },
    );
    const reports = (dir: string) => writeRunReports(dir, { limits: spec.limits });
    await writeRunOutputs(spec.outDir, reports, undefined, spec.limits);
    return summary;
  } catch (error) {
    throw error instanceof ProviderError && error.kind === 'auth'
      ? new ProviderError({
          ...error,
          message: `${error.message}\napb: refinement stopped at the first authentication failure; finished answers are kept in ${spec.outDir} (fix the key and rerun to resume)`,
        })
      : error;
  } finally {
    providers.close();
    lock.release();
  }
}
