/**
 * `apb run`'s flags and how they become a `RunSpec`: the command line wins over `--config FILE`,
 * which wins over the environment (`APB_MODEL`, `APB_BASE_URL`, `APB_JUDGE_BASE_URL`) and the defaults.
 */
import { ENGINE_DEFAULTS } from '../defaults.js';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import {
  parseShard,
  PROTOCOLS,
  RunSpecSchema,
  type ModelEntry,
  type RunSpec,
} from '../pipeline/run-spec.js';
import { vendorBaseUrl } from '../providers/vendor-access.js';
import { GATE_METRICS, parseGate } from './fail-under.js';
import { addModelFlags, judgeSamplingOf } from './model-flags.js';
import { parseRankBy, RANK_BY_HELP } from './rank-by.js';
import { fleetShare } from '../pipeline/shard.js';
import { say } from './terminal.js';
import {
  assertDistinct,
  autoShard,
  withRunWideOptions,
  withVendorBaseUrls,
} from './run-entries.js';

export { environmentEndpointLines } from './run-entries.js';
import { readRunConfig } from './config-file.js';
import {
  choice,
  collect,
  commaList,
  nonNegativeInt,
  positiveInt,
  positiveNumber,
  temperature,
} from './options.js';

/** Flag name (commander's camelCase key) → RunSpec field, for every flag a config file can also set. */
const SPEC_FIELDS = {
  data: 'data',
  splits: 'splits',
  baseUrl: 'baseUrl',
  judge: 'judges',
  judgeBaseUrl: 'judgeBaseUrl',
  out: 'out',
  limit: 'limit',
  ids: 'ids',
  concurrency: 'concurrency',
  rpm: 'rpm',
  tpm: 'tpm',
  timeoutMs: 'timeoutMs',
  maxRetries: 'maxRetries',
  cache: 'cache',
  repeats: 'repeats',
  protocol: 'protocol',
  shard: 'shard',
  maxCost: 'maxCost',
  allowRefusal: 'allowRefusal',
  skipInvalid: 'skipInvalid',
  retryErrors: 'retryErrors',
  temperature: 'temperature',
  maxTokens: 'maxTokens',
  seed: 'seed',
  reasoningEffort: 'reasoningEffort',
  thinkingBudget: 'thinkingBudget',
  judgeBlind: 'judgeBlind',
  batch: 'batch',
  batchPollMs: 'batchPollMs',
  batchMaxRequests: 'batchMaxRequests',
  batchMaxTokens: 'batchMaxTokens',
  batchTimeout: 'batchTimeout',
} as const;

/** The model specs `apb run` takes, listed once under its help (every provider, the baselines and the judge-only `rules`). */
export const SPEC_HELP = `
Model specs (--model, --judge):
  openai:MODEL, anthropic:MODEL, google:MODEL   OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY / GEMINI_API_KEY
  openai-compatible:MODEL                       with --base-url URL (vLLM, Ollama, …); APB_API_KEY optional
  baseline:heuristic|oracle|refuse              named non-LLM planners (a floor, a reference replay, always refuse); no key
  module:PATH, cmd:COMMAND, http:URL            your own planner as code: an ES/TS module, a JSON-lines process, an HTTP
                                                server (docs/own-planner.md; examples/)
  rules                                         judge only, the default: a structural judge from deterministic checks,
                                                needing no API; its numbers are not comparable with the paper's LLM judge

Examples:
  apb run                                                   the built-in sample, offline
  apb run --data apb-dataset --model openai:gpt-4o --judge openai:gpt-4.1
  apb run --model openai:gpt-4o --model anthropic:claude-sonnet-4-5 --out runs/board
  apb run --config board.yaml                               (docs/config.md)
`;

/** Registers every flag of `apb run` on `command`. */
export function addRunOptions(command: Command): Command {
  command.addHelpText('after', SPEC_HELP);
  return withOutputOptions(withEngineOptions(withSelectionOptions(command)));
}

/** What runs: the config, the data and its selection, the models and judges, the directory. */
function withSelectionOptions(command: Command): Command {
  return command
    .option(
      '--config <file>',
      'a JSON or YAML file naming data, splits, models (with their own options), judges and engine settings; flags given as well win (docs/config.md)',
    )
    .option('--data <dir>', 'dataset directory in the released layout, or "sample"', 'sample')
    .option(
      '--fail-under <metric=value>',
      `exit 3 when the finished run scores below VALUE (percent) on METRIC, for CI gates; repeatable (metrics: ${Object.keys(GATE_METRICS).join(', ')})`,
      parseGate,
    )
    .option('--rank-by <metric>', RANK_BY_HELP, parseRankBy)
    .option(
      '--splits <list>',
      'all, holistic, step_wise, or split names separated by commas',
      'all',
    )
    .option(
      '--model <spec>',
      'planner PROVIDER:MODEL (openai, anthropic, google, openai-compatible), your own planner as module:PATH, cmd:COMMAND or http:URL (docs/own-planner.md), or baseline:heuristic|oracle|refuse; repeat for a leaderboard, one run directory per model under --out (default: baseline:heuristic)',
      collect,
    )
    .option(
      '--base-url <url>',
      'endpoint of the planner model(s) (openai-compatible servers); repeat for several endpoints of one model (balanced by load); with several --model it applies to every non-baseline model',
      collect,
    )
    .option(
      '--judge <spec>',
      "judge: rules (structural, needs no API; not comparable with the paper's LLM judge) or PROVIDER:MODEL; repeat for a panel (default: rules)",
      collect,
    )
    .option(
      '--judge-base-url <url>',
      'endpoint of the judge model; repeat for several endpoints',
      collect,
    )
    .option(
      '--out <dir>',
      'run directory, an existing one is resumed; with several --model the folder of their run directories (default: runs/<timestamp>-<model>)',
    )
    .option('--limit <n>', 'first N cases of each split, in file order', positiveInt)
    .option('--ids <list>', 'only these case ids (comma-separated)', commaList);
}

/** How it runs: concurrency, limits, retries, cache, repeats, protocol, shards, budget. */
function withEngineOptions(command: Command): Command {
  return command
    .option(
      '--concurrency <n>',
      'cases in flight at once, and requests in flight per endpoint',
      positiveInt,
      ENGINE_DEFAULTS.concurrency,
    )
    .option('--rpm <n>', 'requests per minute cap per endpoint', positiveNumber)
    .option('--tpm <n>', 'tokens per minute cap per endpoint', positiveNumber)
    .option('--timeout-ms <n>', 'per-request timeout', positiveInt, ENGINE_DEFAULTS.timeoutMs)
    .option(
      '--max-retries <n>',
      'retries of a retryable failure',
      nonNegativeInt,
      ENGINE_DEFAULTS.maxRetries,
    )
    .option('--no-cache', 'bypass the response cache (no read, no write)')
    .option('--repeats <k>', 'run every case K times (pass@k, pass^k)', positiveInt, 1)
    .option(
      '--protocol <name>',
      "paper, or official (the released runner's prompt shapes, without its leaks)",
      choice(PROTOCOLS),
      'paper',
    )
    .option(
      '--shard <i/n|auto>',
      'run only shard I of N of the selected cases (a stable partition by case id; apb merge joins the shards); auto: from the scheduler (Kubernetes, Slurm, AWS Batch, APB_SHARD_INDEX; docs/schedulers.md)',
    )
    .option(
      '--shards <n>',
      'with --shard auto: the shard count (Kubernetes, AWS Batch)',
      positiveInt,
    )
    .option(
      '--fleet-limits',
      'with --shard: --rpm, --tpm, --concurrency and --max-cost are for the whole fleet; each shard takes its share',
    )
    .option(
      '--max-cost <usd>',
      'stop starting new calls once this much would be spent (all models together)',
      positiveNumber,
    )
    .option(
      '--allow-refusal',
      "let every split's prompt allow a REJECT answer (measures false refusals)",
    )
    .option('--skip-invalid', 'skip invalid records (counted) instead of refusing the input')
    .option(
      '--retry-errors',
      'in an existing run directory, run again the cases whose planner call failed',
    );
}

/** Sampling, the judge's blind ablation, batches and what is printed. */
function withOutputOptions(command: Command): Command {
  command
    .option('--temperature <t>', 'sampling temperature of the planner(s)', temperature)
    .option('--max-tokens <n>', 'output token limit of the planner(s)', positiveInt)
    .option('--judge-blind', "judge without the reference (the paper's Table 7 ablation)")
    .option(
      '--batch',
      "send openai, anthropic and google calls through the vendors' batch APIs (half price, answers within 24 h); a rerun resumes the batches",
    )
    .option(
      '--batch-poll-ms <n>',
      'with --batch: time between batch status requests',
      positiveInt,
      30_000,
    )
    .option(
      '--batch-max-requests <n>',
      "with --batch: most requests per batch (below the vendor's limit, e.g. for a low-tier account)",
      positiveInt,
    )
    .option(
      '--batch-max-tokens <n>',
      "with --batch: most estimated tokens per batch (the account's enqueued-token limit)",
      positiveInt,
    )
    .option(
      '--batch-timeout <seconds>',
      'with --batch: cancel a batch still running after this long; its cases stay resumable (rerun without --batch to answer them interactively)',
      positiveInt,
    )
    .option('--quiet', 'print nothing but warnings and errors (no progress line, no summary)')
    .option('--json', 'print the end-of-run summary as JSON on stdout (progress stays on stderr)')
    .option(
      '--dry-run',
      'print the calls, tokens and cost the run would take per split; call nothing, write nothing',
    );
  addModelFlags(command, '', 'the planner(s)', ['temperature', 'maxTokens']);
  return addModelFlags(command, 'judge-', 'every LLM judge (its temperature stays 0)', [
    'temperature',
  ]);
}

/** The run's specification from its flags, its config file and the environment (validated). */
export function runSpecOf(
  options: Record<string, unknown>,
  command: Command,
  env: NodeJS.ProcessEnv = process.env,
): RunSpec {
  const fromCli = (key: string) => command.getOptionValueSource(key) === 'cli';
  const config = typeof options.config === 'string' ? readRunConfig(options.config) : null;
  const input: Record<string, unknown> = { ...config };
  for (const [flag, field] of Object.entries(SPEC_FIELDS)) {
    if (options[flag] === undefined) continue;
    if (fromCli(flag) || input[field] === undefined) input[field] = options[flag];
  }
  const judgeSampling = judgeSamplingOf(options);
  if (judgeSampling) input.judgeSampling = { ...(input.judgeSampling as object), ...judgeSampling };
  if (Array.isArray(options.model))
    input.models = (options.model as string[]).map((spec) => ({ spec }));
  else if (!input.models && env.APB_MODEL) input.models = [{ spec: env.APB_MODEL }];
  input.baseUrl ??= env.APB_BASE_URL || undefined;
  input.judgeBaseUrl ??= env.APB_JUDGE_BASE_URL || undefined;
  if (input.shard === 'auto') input.shard = autoShard(env, options.shards as number | undefined);
  else if (typeof input.shard === 'string') input.shard = parseShard(input.shard);
  const shard = input.shard as { count: number } | undefined;
  if (options.fleetLimits && shard) takeFleetShare(input, shard.count);
  const parsed = RunSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${issue.path.join('.') || 'run'}: ${issue.message}`);
  }
  const spec = parsed.data;
  assertDistinct(spec.models);
  const models = withVendorBaseUrls(withRunWideOptions(spec.models, spec), env);
  const llmJudges = spec.judges.filter((judge) => judge !== 'rules');
  const judgeFromEnv =
    spec.judgeBaseUrl === undefined && llmJudges.length === 1
      ? vendorBaseUrl(llmJudges[0]!, env)
      : null;
  return { ...spec, models, ...(judgeFromEnv ? { judgeBaseUrl: judgeFromEnv.url } : {}) };
}
/** `--fleet-limits`: this shard's share of the fleet's limits, said on stderr. */
function takeFleetShare(input: Record<string, unknown>, count: number): void {
  const share = fleetShare(input, count);
  Object.assign(input, share);
  const flags = { rpm: '--rpm', tpm: '--tpm', concurrency: '--concurrency', maxCost: '--max-cost' };
  const said = Object.entries(share).map(
    ([key, value]) => `${flags[key as keyof typeof flags]} ${value}`,
  );
  if (said.length > 0)
    say(`apb: --fleet-limits: this shard's share (1/${count}): ${said.join(', ')}`);
}
