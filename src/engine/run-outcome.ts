/**
 * What an `apb run` of one or several models ends with beyond its run directories: the reference
 * points shown beside the default run, the exit policy's facts (a run that measured nothing, a
 * budget that stopped it) and the messages that explain a failure, with what was kept.
 */
import type { Limits } from '../limits.js';
import { resolveDatasetDir } from '../dataset/read-cases.js';
import { ApbError, ProviderError, SystematicFailureError } from '../errors.js';
import { rulesJudge } from '../judge/rules-judge.js';
import { readManifest } from '../pipeline/manifest.js';
import { referencePointsOfRun } from '../pipeline/reference-points.js';
import type { RunSummary } from '../pipeline/run.js';
import type { RunSpec } from '../pipeline/run-spec.js';
import type { ReportRunInput } from '../report/report-data.js';
import type { EndOfRunSummary } from '../report/run-summary.js';
import { resumeHint } from './resume-hint.js';
import { promptOptionsOf } from './run-layout.js';

/** The closing line of a run that `--max-cost` stopped: what was spent and how to continue. */
export function budgetMessage(summaries: readonly RunSummary[], maxCost: number): string {
  const spent = summaries[0]?.manifest.budget?.spent_usd ?? 0;
  const missing = summaries.reduce((sum, summary) => sum + summary.total - summary.finished, 0);
  return `apb: stopped by --max-cost ${maxCost} USD after spending about ${spent.toFixed(4)} USD; ${missing} case run(s) not finished (rerun with a higher --max-cost to resume them)`;
}

/**
 * The default run (the heuristic floor judged by the rules judge) is shown beside its ceiling
 * (`baseline:oracle`) and `baseline:refuse` on the same cases, computed in memory without a call;
 * its run directory stays the heuristic's alone (CONTRACT.md, `apb run`).
 */
export async function referenceRunsOf(
  spec: RunSpec & { limits?: Limits | undefined },
  summaries: readonly RunSummary[],
): Promise<ReportRunInput[]> {
  const [only] = spec.models;
  const deterministic = spec.judges.length === 1 && spec.judges[0] === 'rules';
  if (spec.models.length !== 1 || only!.spec !== 'baseline:heuristic' || !deterministic) return [];
  const summary = summaries[0];
  if (!summary || summary.interrupted) return [];
  const manifest = readManifest(summary.dir, spec.limits);
  if (!manifest) return [];
  const promptOptions = promptOptionsOf(spec);
  const points = await referencePointsOfRun(
    summary.dir,
    resolveDatasetDir(spec.data),
    rulesJudge,
    promptOptions,
    spec.limits,
  );
  return points.map((point) => ({
    dir: `${point.model} on the same cases (computed in memory, not written)`,
    rows: point.rows,
    manifest: { ...manifest, identity: { ...manifest.identity, tested_model: point.model } },
  }));
}

/**
 * A finished run in which not one planner answer was usable: every case `error` or `parse_error`, and no
 * prose answer among them credited by the judge (a prose refusal is an answer, issue 11). It measured nothing.
 */
export function hasNoUsableAnswer(summary: RunSummary, end: EndOfRunSummary | null): boolean {
  const { predictions } = summary.manifest.counts;
  if (
    summary.status !== 'complete' ||
    predictions.ok > 0 ||
    predictions.error + predictions.parse_error === 0
  )
    return false;
  const credited =
    end?.entries.some(
      (entry) => entry.dirs.includes(summary.dir) && (entry.outcomes?.correct ?? 0) > 0,
    ) ?? false;
  return !credited;
}

/** Why a run measured nothing, from its manifest's failure reasons (exit 1 follows). */
export function noAnswerMessage(summary: RunSummary): string {
  const { predictions, failure_reasons: reasons = {} } = summary.manifest.counts;
  const top = Object.entries(reasons)
    .slice(0, 3)
    .map(([reason, count]) => `${reason} ×${count}`)
    .join(', ');
  return `apb: ${summary.manifest.identity.tested_model}: no usable answer in ${predictions.error + predictions.parse_error} case run(s) (${top || 'see predictions.jsonl'}); nothing was measured, exit 1 (results in ${summary.dir})`;
}

/** A rejected key stops its run at once; the message says what was kept and how to resume. */
export function explainFailure(error: unknown, model: string | null, outDir: string): unknown {
  const which = model ? ` of ${model}` : '';
  if (error instanceof SystematicFailureError)
    return new ApbError('systematic', `${error.message}\napb: run${which}: ${resumeHint(outDir)}`);
  if (!(error instanceof ProviderError) || error.kind !== 'auth') return error;
  return new ProviderError({
    ...error,
    message: `${error.message}\napb: run${which} stopped at the first authentication failure; ${resumeHint(outDir).replace('fix the cause', 'fix the key')}`,
  });
}
