/**
 * `apb merge` as a library function: the merged directory's lock, `mergeRuns`
 * (pipeline/merge.ts) over the shard directories, then the merged run's scores and reports.
 */
import type { Limits } from '../limits.js';
import path from 'node:path';
import { mergeRuns, type MergeSummary } from '../pipeline/merge.js';
import { writeRunOutputs } from '../pipeline/outputs.js';
import { acquireRunLock } from '../rundir/lock.js';
import { writeRunReports } from '../report/write-reports.js';

/**
 * Merges shard run directories into `outDir`, reading them under `limits` (default
 * `DEFAULT_LIMITS`); each warning (the merge's, the reports') is told.
 */
export async function mergeRunDirs(
  dirs: readonly string[],
  outDir: string,
  onWarning: (message: string) => void = () => {},
  limits?: Limits,
): Promise<MergeSummary> {
  const lock = acquireRunLock(path.resolve(outDir), 'merge');
  try {
    const summary = await mergeRuns(dirs, outDir, undefined, limits);
    for (const warning of summary.warnings) onWarning(warning);
    const reports = (dir: string) => writeRunReports(dir, { limits });
    await writeRunOutputs(summary.outDir, reports, onWarning, limits);
    return summary;
  } finally {
    lock.release();
  }
}
