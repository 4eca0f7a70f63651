/** `apb run`: plan, judge and score a dataset into a run directory (resumable). */
import type { Command } from 'commander';
import path from 'node:path';
import { resolveDatasetDir } from '../../dataset/read-cases.js';
import { ProviderError } from '../../errors.js';
import { Budget } from '../../pipeline/budget.js';
import { estimateRun, formatDryRun } from '../../pipeline/dry-run.js';
import { runEvaluation, type RunSummary } from '../../pipeline/run.js';
import { parseShard, parseSplits, RunSpecSchema, type RunSpec } from '../../pipeline/run-spec.js';
import { writeRunOutputs } from '../../pipeline/outputs.js';
import { DEFAULT_PROMPT_OPTIONS } from '../../settings/prompt.js';
import { limitHeapGrowth } from '../heap.js';
import { handleInterrupts } from '../interrupts.js';
import { EXIT, type CommandOutcome } from '../outcome.js';
import { collect, commaList, positiveInt, positiveNumber, nonNegativeInt, temperature } from '../options.js';
import { createProgressReporter } from '../progress.js';
import { resolveJudge, resolvePlanner } from '../resolve.js';
import { createRunProviders, defaultCacheDir } from '../run-providers.js';
import { endpointSummaryLines } from '../endpoint-summary.js';
import { say } from '../terminal.js';

/** The closing line of a run that `--max-cost` stopped: what was spent and how to continue. */
function budgetMessage(summary: RunSummary, maxCost: number): string {
  const spent = summary.manifest.budget?.spent_usd ?? 0;
  const missing = summary.total - summary.finished;
  return `apb: stopped by --max-cost ${maxCost} USD after spending about ${spent.toFixed(4)} USD; ${missing} case run(s) not finished (rerun with a higher --max-cost to resume them)`;
}

/** `runs/<UTC timestamp>-<model>`, safe as a folder name. */
export function defaultOutDir(model: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return path.join('runs', `${stamp}-${model.replace(/[^A-Za-z0-9._-]+/g, '-')}`);
}

function specFromOptions(options: Record<string, unknown>): RunSpec {
  return RunSpecSchema.parse({
    data: options.data,
    splits: options.splits,
    model: options.model ?? process.env.APB_MODEL,
    baseUrl: options.baseUrl ?? process.env.APB_BASE_URL,
    judges: options.judge,
    judgeBaseUrl: options.judgeBaseUrl ?? process.env.APB_JUDGE_BASE_URL,
    out: options.out,
    limit: options.limit,
    ids: options.ids,
    concurrency: options.concurrency,
    rpm: options.rpm,
    tpm: options.tpm,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    cache: options.cache,
    repeats: options.repeats,
    protocol: options.protocol,
    shard: typeof options.shard === 'string' ? parseShard(options.shard) : undefined,
    maxCost: options.maxCost,
    allowRefusal: options.allowRefusal,
    skipInvalid: options.skipInvalid,
    retryErrors: options.retryErrors,
    temperature: options.temperature,
    maxTokens: options.maxTokens,
    judgeBlind: options.judgeBlind,
  });
}

export function registerRunCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('run')
    .description('run a planner over a dataset, judge every answer, and write scores and reports')
    .option('--data <dir>', 'dataset directory in the released layout, or "sample"', 'sample')
    .option('--splits <list>', 'all, holistic, step_wise, or split names separated by commas', 'all')
    .option('--model <spec>', 'planner: PROVIDER:MODEL or baseline:heuristic|oracle|refuse', 'baseline:heuristic')
    .option('--base-url <url>', 'endpoint of the planner model (openai-compatible servers)')
    .option('--judge <spec>', 'judge: rules or PROVIDER:MODEL (repeat for several judges)', collect)
    .option('--judge-base-url <url>', 'endpoint of the judge model')
    .option('--out <dir>', 'run directory (default runs/<timestamp>-<model>); an existing one is resumed')
    .option('--limit <n>', 'first N cases of each split, in file order', positiveInt)
    .option('--ids <list>', 'only these case ids (comma-separated)', commaList)
    .option('--concurrency <n>', 'cases in flight at once', positiveInt, 8)
    .option('--rpm <n>', 'requests per minute cap per endpoint', positiveNumber)
    .option('--tpm <n>', 'tokens per minute cap per endpoint', positiveNumber)
    .option('--timeout-ms <n>', 'per-request timeout', positiveInt, 120_000)
    .option('--max-retries <n>', 'retries of a retryable failure', nonNegativeInt, 6)
    .option('--no-cache', 'bypass the response cache (no read, no write)')
    .option('--repeats <k>', 'run every case K times (pass@k, pass^k)', positiveInt, 1)
    .option('--protocol <name>', 'paper (default) or official (the released runner\'s prompt shapes, without its leaks)', 'paper')
    .option('--shard <i/n>', 'run only shard I of N of the selected cases (a stable partition by case id; apb merge joins the shards)')
    .option('--max-cost <usd>', 'stop starting new calls once this much would be spent', positiveNumber)
    .option('--allow-refusal', 'let every split\'s prompt allow a REJECT answer (measures false refusals)', false)
    .option('--skip-invalid', 'skip invalid records (counted) instead of refusing the input', false)
    .option('--retry-errors', 'in an existing run directory, run again the cases whose planner call failed', false)
    .option('--temperature <t>', 'sampling temperature of the planner', temperature)
    .option('--max-tokens <n>', 'output token limit of the planner', positiveInt)
    .option('--judge-blind', 'judge without the reference (the paper\'s Table 7 ablation)', false)
    .option('--dry-run', 'print the calls, tokens and cost the run would take per split; call nothing, write nothing', false)
    .action(async (options: Record<string, unknown>) => {
      const spec = specFromOptions(options);
      const datasetDir = resolveDatasetDir(spec.data);
      const splits = parseSplits(spec.splits);
      const selection = { datasetDir, splits, repeats: spec.repeats, ...(spec.limit ? { limitPerSplit: spec.limit } : {}), ...(spec.ids ? { ids: new Set(spec.ids) } : {}), ...(spec.shard ? { shard: spec.shard } : {}) };
      const promptOptions = { ...DEFAULT_PROMPT_OPTIONS, protocol: spec.protocol, allowRefusal: spec.allowRefusal };
      const sampling = { ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}), ...(spec.maxTokens ? { maxOutputTokens: spec.maxTokens } : {}) };
      if (options.dryRun) {
        const estimate = await estimateRun({ selection, skipInvalid: spec.skipInvalid, promptOptions, planner: { spec: spec.model, sampling }, judges: spec.judges, judgeOptions: { protocol: spec.protocol, blind: spec.judgeBlind } });
        process.stdout.write(formatDryRun(estimate, { repeats: spec.repeats, ...(spec.maxCost ? { maxCostUsd: spec.maxCost } : {}) }));
        return;
      }
      limitHeapGrowth();
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
      });
      const planner = resolvePlanner(spec.model, providers, { baseUrl: spec.baseUrl ?? null, sampling, json: spec.protocol === 'official' });
      const judge = resolveJudge(spec.judges, providers, { baseUrl: spec.judgeBaseUrl ?? null, protocol: spec.protocol, blind: spec.judgeBlind });
      const outDir = path.resolve(spec.out ?? defaultOutDir(planner.id, new Date()));
      const interrupts = handleInterrupts();
      try {
        const summary = await runEvaluation(
          {
            outDir,
            selection,
            concurrency: spec.concurrency,
            promptOptions,
            skipInvalid: spec.skipInvalid,
            retryErrors: spec.retryErrors,
            baseUrl: spec.baseUrl ?? null,
            judgeBaseUrl: spec.judgeBaseUrl ?? null,
            judgeBlind: spec.judgeBlind,
            judgeVersion: judge.version,
            judgeIds: spec.judges,
          },
          { planner, judge, reporter: createProgressReporter({ tty: Boolean(process.stderr.isTTY) }), stop: interrupts.stop, signal: interrupts.cancel, endpointStats: () => providers.endpointStats(), ...(budget ? { budget } : {}) },
        );
        for (const line of endpointSummaryLines(summary.manifest.endpoints ?? [])) say(line);
        await writeRunOutputs(outDir);
        if (summary.status === 'stopped-budget') say(budgetMessage(summary, spec.maxCost ?? 0));
        outcome.exitCode = summary.interrupted ? EXIT.interrupted : EXIT.ok;
      } catch (error) {
        throw error instanceof ProviderError && error.kind === 'auth' ? new ProviderError({ ...error, message: `${error.message}\napb: run stopped at the first authentication failure; finished cases are kept in ${outDir} (fix the key and rerun to resume)` }) : error;
      } finally {
        interrupts.dispose();
        providers.close();
      }
    });
}
