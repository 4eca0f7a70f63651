/**
 * `apb judge` as a library function: the output directory's lock, the judges behind the provider
 * stack, `rejudgeRun` (pipeline/rejudge.ts) over the saved predictions, then the scores and
 * reports. Zero planner calls.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { resolveDatasetDir } from '../dataset/read-cases.js';
import { UsageError } from '../errors.js';
import { readManifest } from '../pipeline/manifest.js';
import { importOfficialPredictions, officialPredictionsFile } from '../pipeline/official-import.js';
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
import { resolveJudge, type JudgeSamplingFlags } from './resolve.js';

/** What to re-judge, with which judges (specs) and engine knobs. */
export interface RejudgeRunSpec extends Omit<RejudgeRequest, 'judge' | 'protocol' | 'outDir'> {
  /** Default: `runDir` (the judgements are appended to the run's own). */
  outDir?: string;
  /** Default: the run's protocol (`official` for the official harness's predictions). */
  protocol?: 'paper' | 'official';
  /** The LLM judges' options (max tokens, seed, reasoning effort, thinking budget). */
  judgeSampling?: JudgeSamplingFlags | null;
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

/** Hooks of a re-judging: the run's, and a word once official predictions were imported. */
export type RejudgeHooks = Omit<RejudgeDependencies, 'lock'> & {
  onImported?: (from: string, dir: string) => void;
};

/** True for a run directory apb wrote (its manifest.json), not the official harness's predictions. */
function isRunWithManifest(target: string): boolean {
  if (!existsSync(target)) throw new UsageError(`run directory not found: ${target}`);
  return statSync(target).isDirectory() && existsSync(path.join(target, 'manifest.json'));
}

/** Where an official predictions file is imported by default: `NAME-apb` beside it. */
function officialOutDir(target: string): string {
  const resolved = path.resolve(target);
  const base = statSync(resolved).isDirectory()
    ? resolved
    : resolved.slice(0, -path.extname(resolved).length || undefined);
  return `${base}-apb`;
}

/**
 * The run directory to judge: `runDir` itself, or — for the official harness's predictions (no
 * manifest.json) — the run directory they are imported into first (`outDir`, default `NAME-apb`).
 */
async function runDirOf(spec: RejudgeRunSpec, hooks: RejudgeHooks): Promise<string> {
  if (isRunWithManifest(spec.runDir)) return path.resolve(spec.runDir);
  const dir = await importOfficialPredictions({
    file: officialPredictionsFile(spec.runDir),
    datasetDir: resolveDatasetDir(spec.dataDir ?? 'sample'),
    outDir: path.resolve(spec.outDir ?? officialOutDir(spec.runDir)),
    protocol: spec.protocol ?? 'official',
    ...(spec.limits ? { limits: spec.limits } : {}),
  });
  hooks.onImported?.(spec.runDir, dir);
  return dir;
}

/** Re-judges a run's saved predictions into `outDir` and writes its scores and reports. */
export async function runRejudge(
  spec: RejudgeRunSpec,
  hooks: RejudgeHooks = {},
): Promise<RejudgeRunResult> {
  const official = !isRunWithManifest(spec.runDir);
  const runDir = await runDirOf(spec, hooks);
  const protocol = spec.protocol ?? readManifest(runDir, spec.limits)?.identity.protocol ?? 'paper';
  const outDir = official ? runDir : path.resolve(spec.outDir ?? runDir);
  const lock = acquireRunLock(outDir, 'judge');
  const providers = createRunProviders({
    concurrency: spec.concurrency,
    timeoutMs: spec.timeoutMs,
    maxRetries: spec.maxRetries,
    cache: spec.cache,
    cacheDir: spec.cacheDir,
    ...(spec.limits ? { limits: spec.limits } : {}),
  });
  try {
    const judge = resolveJudge(spec.judgeIds, providers, {
      baseUrl: spec.judgeBaseUrl,
      protocol,
      blind: spec.blind,
      ...(spec.judgeSampling ? { sampling: spec.judgeSampling } : {}),
    });
    const summary = await rejudgeRun(
      {
        runDir,
        outDir,
        dataDir: official ? null : spec.dataDir,
        judge,
        judgeIds: spec.judgeIds,
        judgeBaseUrl: spec.judgeBaseUrl,
        protocol,
        blind: spec.blind,
        concurrency: spec.concurrency,
        limits: spec.limits,
      },
      { ...hooks, lock },
    );
    const reports = (dir: string) => writeRunReports(dir, { limits: spec.limits });
    await writeRunOutputs(summary.dir, reports, undefined, spec.limits);
    return { ...summary, judge: judge.id, scoresFile: path.join(summary.dir, 'scores.json') };
  } finally {
    providers.close();
    lock.release();
  }
}
