/**
 * `apb run`: plan, judge and score a dataset into a run directory (resumable). Several `--model`
 * (or a config file's `models`) run in one engine — one limiter pool, one cache, one budget —
 * into one run directory per model under `--out`, with a leaderboard beside them. The flags
 * become a `RunSpec` (run-options.ts) that `runModels` (src/engine/run-models.ts) runs; this
 * file prints its progress and summary and sets the exit code.
 */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { Command } from 'commander';
import { resolveDatasetDir } from '../../dataset/read-cases.js';
import { unknownDataFileWarnings } from '../../dataset/layout.js';
import { estimateRun } from '../../pipeline/dry-run.js';
import { formatDryRun } from '../../pipeline/dry-run-text.js';
import type { RunSpec } from '../../pipeline/run-spec.js';
import { buildRunSummary } from '../../report/run-summary.js';
import { defaultCacheDir } from '../../engine/providers.js';
import { promptOptionsOf, samplingOf, selectionOf } from '../../engine/run-layout.js';
import { runModels, type RunModelsHooks, type RunModelsSummary } from '../../engine/run-models.js';
import { budgetMessage, hasNoUsableAnswer, noAnswerMessage } from '../../engine/run-outcome.js';
import type { HeadlineKey } from '../../report/scorecard.js';
import { limitHeapGrowth } from '../heap.js';
import { handleInterrupts, type Interrupts } from '../interrupts.js';
import { EXIT, type CommandOutcome } from '../outcome.js';
import { batchProgress } from '../batch-progress.js';
import { endpointSummaryLines } from '../endpoint-summary.js';
import { createProgressReporter } from '../progress.js';
import { addRunOptions, environmentEndpointLines, runSpecOf } from '../run-options.js';
import { printSummary, shown, type Display } from '../summary-text.js';
import { say } from '../terminal.js';
import { failedGates, type Gate } from '../fail-under.js';

/** Between `--batch` passes: how many calls wait on how many batches. */
function onBatchPass(pass: number, pending: { deferred: number; outstanding: number }): void {
  if (pending.deferred > 0 || pending.outstanding > 0)
    say(
      `apb: --batch pass ${pass}: ${pending.deferred} call(s) go through batches; waiting for ${pending.outstanding} batch(es) (rerun the same command to resume if stopped)`,
    );
}

async function dryRun(spec: RunSpec & { limits: Limits }): Promise<void> {
  const selection = selectionOf(spec);
  const promptOptions = promptOptionsOf(spec);
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

/** The progress line, batch lines and endpoint lines the command shows around `runModels`. */
function hooksOf(spec: RunSpec & Display, interrupts: Interrupts): RunModelsHooks {
  return {
    stop: interrupts.stop,
    signal: interrupts.cancel,
    reporter: (runs, traffic) =>
      createProgressReporter({
        tty: Boolean(process.stderr.isTTY),
        runs,
        quiet: spec.quiet,
        summary: true,
        traffic,
      }),
    // `--quiet` prints nothing but warnings and errors: no batch progress lines either.
    ...(spec.quiet ? {} : { onBatchEvent: batchProgress(), onBatchPass }),
    onEndpoints: (stats) => {
      if (!spec.quiet && !spec.json) for (const line of endpointSummaryLines(stats)) say(line);
    },
    notice: say,
  };
}

/** The end-of-run summary, the notes and the exit code of a finished `apb run`. */
function report(
  spec: RunSpec & Display,
  result: RunModelsSummary,
  gates: Gate[],
  wallMs: number,
): number {
  const { root, dirs, summaries, reports, references } = result;
  const end = reports
    ? buildRunSummary(reports.data, {
        command: 'run',
        wallMs,
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
  const belowGates = end && gates.length > 0 ? failedGates(end, gates) : [];
  for (const line of belowGates) say(`apb: --fail-under: ${line}`);
  if (summaries.some((summary) => summary.status === 'stopped-budget'))
    say(budgetMessage(summaries, spec.maxCost ?? 0));
  const empty = summaries.filter((summary) => hasNoUsableAnswer(summary, end));
  for (const summary of empty) say(noAnswerMessage(summary));
  return summaries.some((summary) => summary.interrupted)
    ? EXIT.interrupted
    : empty.length > 0
      ? EXIT.failure
      : belowGates.length > 0
        ? EXIT.belowGate
        : EXIT.ok;
}

export function registerRunCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
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
      limits,
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
    limitHeapGrowth();
    const interrupts = handleInterrupts();
    try {
      const result = await runModels(
        { ...spec, cacheDir: defaultCacheDir(process.env) },
        hooksOf(spec, interrupts),
      );
      const gates = (options.failUnder as Gate[] | undefined) ?? [];
      outcome.exitCode = report(spec, result, gates, Date.now() - started);
    } finally {
      interrupts.dispose();
    }
  });
}
