/**
 * `apb judge` as a library function: the output directory's lock, the judges behind the provider
 * stack, `rejudgeRun` (pipeline/rejudge.ts) over the saved predictions, then the scores and
 * reports. Zero planner calls.
 */
import path from 'node:path';
import { readManifest } from '../pipeline/manifest.js';
import { writeRunOutputs } from '../pipeline/outputs.js';
import {
  rejudgeRun,
  type RejudgeDependencies,
  type RejudgeRequest,
  type RejudgeSummary,
} from '../pipeline/rejudge.js';
import { acquireRunLock } from '../rundir/lock.js';
import { writeRunReports } from '../report/write-reports.js';
import { createRunProviders } from './providers.js';
import { resolveJudge } from './resolve.js';

/** What to re-judge, with which judges (specs) and engine knobs. */
export interface RejudgeRunSpec extends Omit<RejudgeRequest, 'judge' | 'protocol' | 'outDir'> {
  /** Default: `runDir` (the judgements are appended to the run's own). */
  outDir?: string;
  /** Default: the run's protocol. */
  protocol?: 'paper' | 'official';
  timeoutMs: number;
  maxRetries: number;
  cache: boolean;
  cacheDir: string;
}

export interface RejudgeRunResult extends RejudgeSummary {
  /** The judge's id (a panel's `panel(A+B)`). */
  judge: string;
  scoresFile: string;
}

/** Re-judges a run's saved predictions into `outDir` and writes its scores and reports. */
export async function runRejudge(
  spec: RejudgeRunSpec,
  hooks: Omit<RejudgeDependencies, 'lock'> = {},
): Promise<RejudgeRunResult> {
  const runDir = path.resolve(spec.runDir);
  const protocol = spec.protocol ?? readManifest(runDir)?.identity.protocol ?? 'paper';
  const outDir = path.resolve(spec.outDir ?? runDir);
  const lock = acquireRunLock(outDir, 'judge');
  const providers = createRunProviders({
    concurrency: spec.concurrency,
    timeoutMs: spec.timeoutMs,
    maxRetries: spec.maxRetries,
    cache: spec.cache,
    cacheDir: spec.cacheDir,
  });
  try {
    const judge = resolveJudge(spec.judgeIds, providers, {
      baseUrl: spec.judgeBaseUrl,
      protocol,
      blind: spec.blind,
    });
    const summary = await rejudgeRun(
      {
        runDir,
        outDir,
        dataDir: spec.dataDir,
        judge,
        judgeIds: spec.judgeIds,
        judgeBaseUrl: spec.judgeBaseUrl,
        protocol,
        blind: spec.blind,
        concurrency: spec.concurrency,
      },
      { ...hooks, lock },
    );
    await writeRunOutputs(summary.dir, writeRunReports);
    return { ...summary, judge: judge.id, scoresFile: path.join(summary.dir, 'scores.json') };
  } finally {
    providers.close();
    lock.release();
  }
}
