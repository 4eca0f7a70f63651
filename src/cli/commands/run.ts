/**
 * `apb run`: plan, judge and score a dataset into a run directory (resumable). Several `--model`
 * (or a config file's `models`) run in one engine — one limiter pool, one cache, one budget —
 * into one run directory per model under `--out`, with a leaderboard beside them.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import path from 'node:path';
import { resolveDatasetDir } from '../../dataset/read-cases.js';
import { unknownDataFileWarnings } from '../../dataset/layout.js';
import { ApbError, ProviderError, SystematicFailureError, UsageError } from '../../errors.js';
import { Budget } from '../../pipeline/budget.js';
import { estimateRun, formatDryRun } from '../../pipeline/dry-run.js';
import { runWithBatches } from '../../pipeline/batch-run.js';
import {
  runEvaluation,
  type ResolvedRun,
  type RunDependencies,
  type RunSummary,
} from '../../pipeline/run.js';
import { Batcher } from '../../providers/batch/batcher.js';
import { BATCH_PROVIDERS } from '../../providers/batch/client.js';
import { modelDirName } from '../../pipeline/run-dirs.js';
import { parseSplits, type ModelEntry, type RunSpec } from '../../pipeline/run-spec.js';
import { writeRunReports } from '../../report/write-reports.js';
import { referencePointsOfRun } from '../../pipeline/reference-points.js';
import { rulesJudge } from '../../judge/rules-judge.js';
import { readManifest } from '../../pipeline/manifest.js';
import type { ReportRunInput } from '../../report/report-data.js';

import { writeRunOutputs } from '../../pipeline/outputs.js';
import { acquireRunLocks } from '../../rundir/lock.js';
import type { SamplingParams } from '../../providers/provider.js';
import { buildRunSummary, type EndOfRunSummary } from '../../report/run-summary.js';
import { writeLeaderboard, type WrittenReports } from '../../report/write-reports.js';
import type { HeadlineKey } from '../../report/scorecard.js';
import { DEFAULT_PROMPT_OPTIONS } from '../../settings/prompt.js';
import { limitHeapGrowth } from '../heap.js';
import { handleInterrupts } from '../interrupts.js';
import { EXIT, type CommandOutcome } from '../outcome.js';
import { batchProgress } from '../batch-progress.js';
import { endpointSummaryLines, recordFinalEndpoints } from '../endpoint-summary.js';
import { resumeHint } from '../resume-hint.js';
import { createProgressReporter } from '../progress.js';
import { resolveJudge, resolvePlanner } from '../resolve.js';
import { addRunOptions, environmentEndpointLines, runSpecOf } from '../run-options.js';
import { createRunProviders, defaultCacheDir, type RunProviders } from '../run-providers.js';
import { printSummary, shown, type Display } from '../summary-text.js';
import { say } from '../terminal.js';
import { failedGates, type Gate } from '../fail-under.js';

/** The closing line of a run that `--max-cost` stopped: what was spent and how to continue. */
function budgetMessage(summaries: readonly RunSummary[], maxCost: number): string {
  const spent = summaries[0]?.manifest.budget?.spent_usd ?? 0;
  const missing = summaries.reduce((sum, summary) => sum + summary.total - summary.finished, 0);
  return `apb: stopped by --max-cost ${maxCost} USD after spending about ${spent.toFixed(4)} USD; ${missing} case run(s) not finished (rerun with a higher --max-cost to resume them)`;
}

/** `runs/<UTC timestamp>-<model>`, safe as a folder name. */
export function defaultOutDir(model: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return path.join('runs', `${stamp}-${modelDirName(model)}`);
}

/** A model entry's sampling parameters (what enters its cache keys and its manifest). */
function samplingOf(entry: ModelEntry): SamplingParams {
  return {
    ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
    ...(entry.maxTokens ? { maxOutputTokens: entry.maxTokens } : {}),
    ...(entry.seed !== undefined ? { seed: entry.seed } : {}),
    ...(entry.reasoningEffort ? { reasoningEffort: entry.reasoningEffort } : {}),
    ...(entry.thinkingBudget !== undefined ? { thinkingBudget: entry.thinkingBudget } : {}),
  };
}

function selectionOf(spec: RunSpec) {
  const splits = parseSplits(spec.splits);
  return {
    datasetDir: resolveDatasetDir(spec.data),
    splits,
    repeats: spec.repeats,
    ...(spec.limit ? { limitPerSplit: spec.limit } : {}),
    ...(spec.ids ? { ids: new Set(spec.ids) } : {}),
    ...(spec.shard ? { shard: spec.shard } : {}),
  };
}

async function dryRun(spec: RunSpec): Promise<void> {
  const selection = selectionOf(spec);
  const promptOptions = {
    ...DEFAULT_PROMPT_OPTIONS,
    protocol: spec.protocol,
    allowRefusal: spec.allowRefusal,
  };
  for (const entry of spec.models) {
    const estimate = await estimateRun({
      selection,
      skipInvalid: spec.skipInvalid,
      promptOptions,
      planner: { spec: entry.spec, sampling: samplingOf(entry) },
      judges: spec.judges,
      judgeOptions: { protocol: spec.protocol, blind: spec.judgeBlind },
      batch: spec.batch,
    });
    if (spec.models.length > 1) process.stdout.write(`== ${entry.spec}\n`);
    process.stdout.write(
      formatDryRun(estimate, {
        repeats: spec.repeats,
        ...(spec.maxCost ? { maxCostUsd: spec.maxCost } : {}),
      }),
    );
  }
}

/** Two models on one endpoint share its limiter: their explicit limits must agree. */
function assertEndpointLimits(models: readonly ModelEntry[]): void {
  const seen = new Map<string, ModelEntry>();
  for (const entry of models) {
    const key = `${entry.spec.split(':')[0]} ${entry.baseUrl ?? ''}`;
    const other = seen.get(key);
    for (const limit of ['concurrency', 'rpm', 'tpm'] as const) {
      if (
        other &&
        entry[limit] !== undefined &&
        other[limit] !== undefined &&
        entry[limit] !== other[limit]
      ) {
        throw new UsageError(
          `${entry.spec} and ${other.spec} share an endpoint but set different ${limit} (${entry[limit]} and ${other[limit]}): an endpoint has one limit`,
        );
      }
    }
    if (!other) seen.set(key, entry);
  }
}

/** One model's run as the orchestrator takes it (everything but the planner is shared by every model). */
function resolvedRunOf(
  spec: RunSpec,
  entry: ModelEntry,
  outDir: string,
  judge: { version: string },
): ResolvedRun {
  return {
    outDir,
    selection: selectionOf(spec),
    concurrency: spec.concurrency,
    promptOptions: {
      ...DEFAULT_PROMPT_OPTIONS,
      protocol: spec.protocol,
      allowRefusal: spec.allowRefusal,
    },
    skipInvalid: spec.skipInvalid,
    retryErrors: spec.retryErrors,
    baseUrl: entry.baseUrl ?? null,
    judgeBaseUrl: spec.judgeBaseUrl ?? null,
    judgeBlind: spec.judgeBlind,
    judgeVersion: judge.version,
    judgeIds: spec.judges,
  };
}

/** The run directory of each model: `--out` itself for one model, `--out/<model>/` for several. */
function outDirsOf(spec: RunSpec, now: Date): { root: string | null; dirs: string[] } {
  if (spec.models.length === 1)
    return {
      root: null,
      dirs: [path.resolve(spec.out ?? defaultOutDir(spec.models[0]!.spec, now))],
    };
  const root = path.resolve(spec.out ?? defaultOutDir('leaderboard', now));
  const names = spec.models.map((entry) => modelDirName(entry.spec));
  const clash = names.find((name, index) => names.indexOf(name) !== index);
  if (clash)
    throw new UsageError(
      `two models would share the run directory ${path.join(root, clash)}: rename one in the config file`,
    );
  return { root, dirs: names.map((name) => path.join(root, name)) };
}

/** `--batch` needs a model of a vendor with a batch API among the planners and judges, and cannot keep a budget. */
function assertBatchable(spec: RunSpec): void {
  if (spec.maxCost)
    throw new UsageError(
      '--max-cost cannot yet keep a budget over batches (their cost is known only when they end): estimate with --dry-run --batch instead',
    );
  const specs = [...spec.models.map((entry) => entry.spec), ...spec.judges];
  if (
    !specs.some((model) =>
      (BATCH_PROVIDERS as readonly string[]).includes(model.split(':')[0] ?? ''),
    )
  ) {
    throw new UsageError(
      `--batch: none of the run's models (${specs.join(', ')}) is of a vendor with a batch API (${BATCH_PROVIDERS.join(', ')})`,
    );
  }
}

/** Between `--batch` passes: how many calls wait on how many batches. */
function onBatchPass(pass: number, pending: { deferred: number; outstanding: number }): void {
  if (pending.deferred > 0 || pending.outstanding > 0)
    say(
      `apb: --batch pass ${pass}: ${pending.deferred} call(s) go through batches; waiting for ${pending.outstanding} batch(es) (rerun the same command to resume if stopped)`,
    );
}

/**
 * The default run (the heuristic floor judged by the rules judge) is shown beside its ceiling
 * (`baseline:oracle`) and `baseline:refuse` on the same cases, computed in memory without a call;
 * its run directory stays the heuristic's alone (CONTRACT.md, `apb run`).
 */
async function referenceRunsOf(
  spec: RunSpec,
  summaries: readonly RunSummary[],
): Promise<ReportRunInput[]> {
  const [only] = spec.models;
  const deterministic = spec.judges.length === 1 && spec.judges[0] === 'rules';
  if (spec.models.length !== 1 || only!.spec !== 'baseline:heuristic' || !deterministic) return [];
  const summary = summaries[0];
  if (!summary || summary.interrupted) return [];
  const manifest = readManifest(summary.dir);
  if (!manifest) return [];
  const promptOptions = resolvedRunOf(spec, only!, summary.dir, { version: '' }).promptOptions;
  const points = await referencePointsOfRun(
    summary.dir,
    resolveDatasetDir(spec.data),
    rulesJudge,
    promptOptions,
  );
  return points.map((point) => ({
    dir: `${point.model} on the same cases (computed in memory, not written)`,
    rows: point.rows,
    manifest: { ...manifest, identity: { ...manifest.identity, tested_model: point.model } },
  }));
}

/** Runs every model of the spec at once through the shared providers; each keeps its own directory and resumes on its own. */
async function runModels(
  spec: RunSpec & Display,
  providers: RunProviders,
  budget: Budget | undefined,
  layout: { root: string | null; dirs: string[] },
  batcher?: Batcher,
): Promise<{
  root: string | null;
  dirs: string[];
  summaries: RunSummary[];
  reports: WrittenReports | null;
  /** Reference points shown beside the run (the default run's oracle and refusal). */
  references: number;
}> {
  const json = spec.protocol === 'official';
  const planners = spec.models.map((entry) =>
    resolvePlanner(entry.spec, providers, {
      baseUrl: entry.baseUrl ?? null,
      sampling: samplingOf(entry),
      json,
      overrides: entry,
    }),
  );
  const judge = resolveJudge(spec.judges, providers, {
    baseUrl: spec.judgeBaseUrl ?? null,
    protocol: spec.protocol,
    blind: spec.judgeBlind,
    ...(spec.judgeSampling ? { sampling: spec.judgeSampling } : {}),
  });
  const { root, dirs } = layout;
  // One writer per run directory (and per leaderboard folder): all taken before anything runs.
  const locks = acquireRunLocks(root ? [root, ...dirs] : dirs, 'run');
  const evaluate = (run: ResolvedRun, deps: RunDependencies) =>
    batcher
      ? runWithBatches(run, deps, batcher, spec.quiet ? {} : { onPass: onBatchPass })
      : runEvaluation(run, deps);
  const progress = createProgressReporter({
    tty: Boolean(process.stderr.isTTY),
    runs: planners.length,
    quiet: spec.quiet,
    summary: true,
    traffic: () => providers.traffic(),
  });
  const interrupts = handleInterrupts();
  try {
    const settled = await Promise.allSettled(
      spec.models.map((entry, index) =>
        evaluate(resolvedRunOf(spec, entry, dirs[index]!, judge), {
          planner: planners[index]!,
          judge,
          reporter: progress.forRun(planners[index]!.id),
          stop: interrupts.stop,
          signal: interrupts.cancel,
          endpointStats: () => providers.endpointStats(),
          lock: locks[(root ? 1 : 0) + index]!,
          ...(budget ? { budget } : {}),
        }),
      ),
    );
    const summaries = settled.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value] : [],
    );
    if (!spec.quiet && !spec.json)
      for (const line of endpointSummaryLines(providers.endpointStats())) say(line);
    if (spec.models.length > 1) recordFinalEndpoints(dirs, providers.endpointStats());
    let reports: WrittenReports | null = null;
    const extraRuns = await referenceRunsOf(spec, summaries);
    for (const summary of summaries)
      reports = await writeRunOutputs(summary.dir, (dir) => writeRunReports(dir, { extraRuns }));
    const failed = settled.findIndex((result) => result.status === 'rejected');
    // The leaderboard is written even when a model's run failed: the others' rows stand, and the
    // failed run's row is marked by its status.
    const written = dirs.filter((dir) => existsSync(path.join(dir, 'judgements.jsonl')));
    if (root && written.length > 0)
      reports = await writeLeaderboard(root, written, { rankBy: spec.rankBy });
    if (failed >= 0 && spec.models.length > 1)
      say(
        `apb: the run of ${spec.models[failed]!.spec} failed; the other models' runs kept their results`,
      );
    if (failed >= 0)
      throw explainFailure(
        (settled[failed] as PromiseRejectedResult).reason,
        spec.models.length > 1 ? spec.models[failed]!.spec : null,
        dirs[failed]!,
      );
    return { root, dirs, summaries, reports, references: extraRuns.length };
  } finally {
    interrupts.dispose();
    for (const lock of locks.reverse()) lock.release();
  }
}

/**
 * A finished run in which not one planner answer was usable: every case `error` or `parse_error`, and no
 * prose answer among them credited by the judge (a prose refusal is an answer, issue 11). It measured nothing.
 */
function hasNoUsableAnswer(summary: RunSummary, end: EndOfRunSummary | null): boolean {
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
function noAnswerMessage(summary: RunSummary): string {
  const { predictions, failure_reasons: reasons = {} } = summary.manifest.counts;
  const top = Object.entries(reasons)
    .slice(0, 3)
    .map(([reason, count]) => `${reason} ×${count}`)
    .join(', ');
  return `apb: ${summary.manifest.identity.tested_model}: no usable answer in ${predictions.error + predictions.parse_error} case run(s) (${top || 'see predictions.jsonl'}); nothing was measured, exit 1 (results in ${summary.dir})`;
}

/** A rejected key stops its run at once; the message says what was kept and how to resume. */
function explainFailure(error: unknown, model: string | null, outDir: string): unknown {
  const which = model ? ` of ${model}` : '';
  if (error instanceof SystematicFailureError)
    return new ApbError('systematic', `${error.message}\napb: run${which}: ${resumeHint(outDir)}`);
  if (!(error instanceof ProviderError) || error.kind !== 'auth') return error;
  return new ProviderError({
    ...error,
    message: `${error.message}\napb: run${which} stopped at the first authentication failure; ${resumeHint(outDir).replace('fix the cause', 'fix the key')}`,
  });
}

export function registerRunCommand(program: Command, outcome: CommandOutcome): void {
  addRunOptions(
    program
      .command('run')
      .description(
        'run one or several planners over a dataset, judge every answer, and write scores and reports',
      ),
  ).action(async (options: Record<string, unknown>, command: Command) => {
    const started = Date.now();
    const spec = {
      ...runSpecOf(options, command),
      quiet: Boolean(options.quiet),
      json: Boolean(options.json),
      ...(options.rankBy ? { rankBy: options.rankBy as HeadlineKey } : {}),
    };
    if (!spec.quiet && !spec.json)
      for (const line of environmentEndpointLines([
        ...spec.models.map((m) => m.spec),
        ...spec.judges,
      ]))
        say(line);
    if (!spec.quiet && !spec.json)
      for (const line of unknownDataFileWarnings(resolveDatasetDir(spec.data))) say(`apb: ${line}`);
    if (options.dryRun) return dryRun(spec);
    assertEndpointLimits(spec.models);
    if (spec.batch) assertBatchable(spec);
    limitHeapGrowth();
    const layout = outDirsOf(spec, new Date());
    // One batcher per command: its log sits in the run directory, or beside the model directories of a leaderboard run.
    // `--quiet` prints nothing but warnings and errors: no batch progress lines either.
    const batcher = spec.batch
      ? await Batcher.open(layout.root ?? layout.dirs[0]!, {
          pollMs: spec.batchPollMs,
          ...(spec.batchMaxRequests ? { maxRequests: spec.batchMaxRequests } : {}),
          ...(spec.batchMaxTokens ? { maxTokens: spec.batchMaxTokens } : {}),
          ...(spec.batchTimeout ? { timeoutMs: spec.batchTimeout * 1000 } : {}),
          ...(spec.quiet ? {} : { onEvent: batchProgress() }),
        })
      : undefined;
    const budget = spec.maxCost ? new Budget(spec.maxCost) : undefined;
    const providers = createRunProviders({
      concurrency: spec.concurrency,
      ...(spec.rpm ? { rpm: spec.rpm } : {}),
      ...(spec.tpm ? { tpm: spec.tpm } : {}),
      timeoutMs: spec.timeoutMs,
      maxRetries: spec.maxRetries,
      cache: spec.cache,
      cacheDir: defaultCacheDir(process.env),
      ...(budget ? { budget } : {}),
      ...(batcher ? { batch: batcher } : {}),
    });
    try {
      const { root, dirs, summaries, reports, references } = await runModels(
        spec,
        providers,
        budget,
        layout,
        batcher,
      );
      const end = reports
        ? buildRunSummary(reports.data, {
            command: 'run',
            wallMs: Date.now() - started,
            reportHtml: shown(reports.html),
            reportMd: shown(reports.markdown),
            viewCommand: `npx apb view ${shown(root ?? dirs[0]!)}`,
          })
        : null;
      if (end) printSummary(spec, end);
      if (end && !spec.quiet && !spec.json && references > 0)
        say(
          "  note: baseline:oracle and baseline:refuse are this default run's reference points (the same cases, no call, not written to the run directory). A real model: npx apb run --model openai:gpt-4o (with OPENAI_API_KEY), or --model openai-compatible:NAME --base-url URL for a local server.",
        );
      const gates = (options.failUnder as Gate[] | undefined) ?? [];
      const belowGates = end && gates.length > 0 ? failedGates(end, gates) : [];
      for (const line of belowGates) say(`apb: --fail-under: ${line}`);
      if (summaries.some((summary) => summary.status === 'stopped-budget'))
        say(budgetMessage(summaries, spec.maxCost ?? 0));
      const empty = summaries.filter((summary) => hasNoUsableAnswer(summary, end));
      for (const summary of empty) say(noAnswerMessage(summary));
      outcome.exitCode = summaries.some((summary) => summary.interrupted)
        ? EXIT.interrupted
        : empty.length > 0
          ? EXIT.failure
          : belowGates.length > 0
            ? EXIT.belowGate
            : EXIT.ok;
    } finally {
      providers.close();
    }
  });
}
