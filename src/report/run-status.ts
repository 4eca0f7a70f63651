/**
 * Runs that did not finish: a report of one must not read as finished. Every format opens with a
 * banner per such run (its status and how many cases it holds of how many planned), and the
 * scorecard marks the rows it feeds. Pure.
 */
import type { RunSummary } from './report-runs.js';

/** How each unfinished status reads in a banner. */
const STATUS_WORDS: Record<string, string> = {
  running: 'is still running',
  interrupted: 'was interrupted',
  'stopped-budget': 'was stopped by its budget (--max-cost)',
  failed: 'failed',
};

/** Whether a run's status says it did not finish (runs without a manifest have none: no banner). */
export function isUnfinished(status: string | null): status is string {
  return status !== null && status !== 'complete';
}

/** One banner per run that did not finish, in the runs' order. */
export function unfinishedBanners(runs: readonly RunSummary[]): string[] {
  return runs.flatMap((run) => {
    if (!isUnfinished(run.status)) return [];
    const how = STATUS_WORDS[run.status] ?? `ended "${run.status}"`;
    const of = run.plannedCases !== null && run.plannedCases > 0 ? ` of ${run.plannedCases}` : '';
    const resume =
      run.status === 'failed' || run.status === 'running'
        ? ''
        : ' Rerun the same command to resume it.';
    return [
      `Unfinished run: ${run.dir} ${how}. It holds ${run.cases}${of} case(s) (${run.judgements} judgement(s)); every number covers only those.${resume}`,
    ];
  });
}

/** The unfinished status of the runs a (model, judge) row draws from, worst first; null when all finished. */
export function unfinishedStatusOf(
  runs: readonly RunSummary[],
  dirs: readonly string[],
): string | null {
  const order = ['failed', 'stopped-budget', 'interrupted', 'running'];
  const statuses = runs
    .filter((run) => dirs.includes(run.dir) && isUnfinished(run.status))
    .map((run) => run.status!);
  if (statuses.length === 0) return null;
  return statuses.sort((a, b) => ((order.indexOf(a) + 5) % 5) - ((order.indexOf(b) + 5) % 5))[0]!;
}
