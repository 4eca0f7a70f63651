/**
 * `apb construct STEP --in DIR --out DIR [--seed S] [--llm SPEC] …` and `apb construct pipeline
 * --config FILE` (paper §3.2, Appendix B): each step of the construction pipeline as a subcommand.
 */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { Command } from 'commander';
import path from 'node:path';
import { StepSpecSchema, type StepSpec } from '../../construction/step-spec.js';
import { UNSOLVABLE_TYPES } from '../../dataset/case.js';
import { resolveDatasetDir } from '../../dataset/read-cases.js';
import { UsageError } from '../../errors.js';
import { constructStep } from '../../engine/construct.js';
import {
  formatConstructDryRun,
  type ConstructEngineOptions,
} from '../../engine/construct-models.js';
import { defaultCacheDir } from '../../engine/providers.js';
import {
  describeSummary,
  progressLine,
  readPipelineConfig,
  runPipelineCommand,
} from '../construct-pipeline.js';
import type { CommandOutcome } from '../outcome.js';
import {
  addEngineOptions,
  choice,
  collect,
  commaList,
  engineOptionsOf,
  nonNegativeInt,
  positiveInt,
  positiveNumber,
  type EngineFlags,
} from '../options.js';
import { say } from '../terminal.js';

const numbers = (value: string) => commaList(value).map(Number);

/** The model and engine flags of every step and of the pipeline (the shared engine flags plus model, budget and dry run). */
function addModelOptions(command: Command): Command {
  return addEngineOptions(command, 'model calls')
    .option('--llm-base-url <url>', 'endpoint of the --llm model (openai-compatible servers)')
    .option(
      '--max-cost <usd>',
      'stop once the model calls would cost more than this',
      positiveNumber,
    )
    .option('--dry-run', 'count the model calls, tokens and cost; call and write nothing', false);
}

/** The flags every step takes: input, output, seed, model and engine. */
function addCommonOptions(command: Command): Command {
  return addModelOptions(
    command
      .option('--in <path>', 'input directory (repeat for several)', collect)
      .requiredOption(
        '--out <dir>',
        'output directory (new, empty, or an earlier apb construct output, which is replaced)',
      )
      .option(
        '--seed <n>',
        'seed of every random choice (same seed, same inputs and cache: byte-identical output)',
        nonNegativeInt,
        1,
      )
      .option('--llm <spec>', 'generate with this model (PROVIDER:MODEL) where the step can'),
  );
}

function engineOptions(options: Record<string, unknown>): ConstructEngineOptions {
  return {
    ...engineOptionsOf(options as unknown as EngineFlags),
    cacheDir: defaultCacheDir(process.env),
    ...(options.llmBaseUrl ? { llmBaseUrl: options.llmBaseUrl as string } : {}),
    ...(options.maxCost ? { maxCost: options.maxCost as number } : {}),
    dryRun: options.dryRun === true,
  };
}

/** A step's spec from its flags, validated by the schema a pipeline config uses. */
export function stepSpecOf(step: StepSpec['step'], fields: Record<string, unknown>): StepSpec {
  const defined = Object.fromEntries(
    Object.entries({ step, ...fields }).filter(([, value]) => value !== undefined),
  );
  const parsed = StepSpecSchema.safeParse(defined);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UsageError(
    `construct ${step}: --${String(issue.path[0] ?? 'options').replace(/_/g, '-')}: ${issue.message}`,
  );
}

async function runOne(
  step: StepSpec['step'],
  fields: Record<string, unknown>,
  options: Record<string, unknown>,
  outcome: CommandOutcome,
  limits: Limits,
): Promise<void> {
  const spec = stepSpecOf(step, fields);
  const inputs = ((options.in as string[] | undefined) ?? []).map((input) =>
    input === 'sample' ? resolveDatasetDir('sample') : path.resolve(input),
  );
  const result = await constructStep({
    spec,
    inputs,
    out: options.out as string,
    seed: options.seed as number,
    llm: (options.llm as string | undefined) ?? null,
    engine: engineOptions(options),
    onItem: progressLine(step),
    recorded: { spec, inputs: (options.in as string[] | undefined) ?? [] },
    limits,
  });
  if (result.dryRun) process.stdout.write(formatConstructDryRun(result.dryRun));
  else say(describeSummary(result.summary, options.out as string, result.usage));
  outcome.exitCode = 0;
}

type StepFields = (options: Record<string, unknown>) => Record<string, unknown>;

const STEPS: Array<{
  step: StepSpec['step'];
  description: string;
  options: (command: Command) => Command;
  fields: StepFields;
}> = [
  {
    step: 'import',
    description: 'raw tasks or agent trajectories → source records (sources.jsonl)',
    options: (command) =>
      command
        .requiredOption(
          '--from <source>',
          "tau2 (tau2-bench tasks executed in apb exec's environments) or trajectories (JSONL of chat messages)",
          choice(['tau2', 'trajectories']),
        )
        .option('--domains <list>', 'tau2 domains (retail,airline)', commaList)
        .option(
          '--task-split <split>',
          'tau2 task split: train, test or all',
          choice(['train', 'test', 'all']),
        )
        .option('--no-execute', 'do not execute the tau2 actions (tool returns marked as absent)')
        .option(
          '--remove-pii',
          'trajectories: replace e-mails, phones, cards and IPs by placeholders (default: real-traffic sources only)',
        )
        .option('--keep-pii', 'trajectories: never replace PII'),
    fields: (options) => ({
      from: options.from,
      domains: options.domains,
      task_split: options.taskSplit,
      execute: options.execute,
      remove_pii: options.keepPii ? false : options.removePii,
    }),
  },
  {
    step: 'augment',
    description:
      'B.1 augmentation with --llm: enrich each query, add tools, extend the trajectory with simulated steps (on average +4.5 steps, +5.6 tools)',
    options: (command) =>
      command
        .option('--add-steps <n>', 'steps added per task on average (default 4.5)', Number)
        .option('--add-tools <n>', 'tools added per task on average (default 5.6)', Number)
        .option(
          '--target-steps <n>',
          'instead of --add-steps: grow each task to this many steps on average (release: 12.48)',
          Number,
        ),
    fields: (options) => ({
      add_steps: options.addSteps,
      add_tools: options.addTools,
      target_steps: options.targetSteps,
    }),
  },
  {
    step: 'check',
    description:
      'B.2 quality control: the rule check, and with --llm the reasonability check and the E1–E6 trajectory audit; writes the review queue',
    options: (command) => command,
    fields: () => ({}),
  },
  {
    step: 'holistic',
    description:
      'B.3: step-wise trajectories → holistic cases (with --llm, or the deterministic fallback)',
    options: (command) =>
      command.option('--reviewed-only', 'use only records a reviewer accepted or edited'),
    fields: (options) => ({ reviewed_only: options.reviewedOnly }),
  },
  {
    step: 'cuts',
    description:
      'step-wise cases: the middle of each trajectory at next-1 and at each of --horizons (300 parents); --ratios 0.25,0.5,0.75 adds early/late next-1 cuts (Table 15)',
    options: (command) =>
      command
        .option(
          '--ratios <list>',
          'cut points of next-1 cases (default 0.5; 0.25,0.5,0.75 for Table 15)',
          numbers,
        )
        .option(
          '--max-parents <n>',
          'cut at most N trajectories, a seeded sample (default 300)',
          positiveInt,
        )
        .option('--all-parents', 'cut every trajectory')
        .option('--incomplete', 'also cut a trajectory too short for every horizon')
        .option(
          '--horizons <list>',
          'horizons above 1, each cut in the middle (default 2,3)',
          numbers,
        )
        .option('--allow-unexecuted', 'also cut records whose tool returns are absent')
        .option('--reviewed-only', 'use only records a reviewer accepted or edited'),
    fields: (options) => ({
      ratios: options.ratios,
      horizons: options.horizons,
      allow_unexecuted: options.allowUnexecuted,
      reviewed_only: options.reviewedOnly,
      max_parents: options.allParents ? null : options.maxParents,
      complete_only: options.incomplete ? false : undefined,
    }),
  },
  {
    step: 'extraneous',
    description: 'B.4.1: nested distractor levels from --llm or --pool FILE',
    options: (command) =>
      command
        .option('--levels <list>', 'distractor counts (default 2,4,6,8,10)', numbers)
        .option(
          '--parents <n>',
          'parents per regime (holistic, step-wise next-1), a seeded sample (default 150)',
          positiveInt,
        )
        .option('--all-parents', 'vary every parent')
        .option(
          '--pool <file>',
          'candidate distractor tools: a JSON array or JSONL of tool definitions (repeat for several)',
          collect,
        ),
    fields: (options) => ({
      levels: options.levels,
      parents_per_regime: options.allParents ? null : options.parents,
      pool: (options.pool as string[] | undefined)?.map((file) => path.resolve(file)),
    }),
  },
  {
    step: 'broken',
    description: "B.4.2: a critical tool's return replaced by an error, a replacement tool added",
    options: (command) =>
      command.option('--reviewed-only', 'use only records a reviewer accepted or edited'),
    fields: (options) => ({ reviewed_only: options.reviewedOnly }),
  },
  {
    step: 'unsolvable',
    description:
      'B.4.3: unsolvable variants (tool_removal and visual_missing deterministic; the others with --llm)',
    options: (command) =>
      command
        .option('--types <list>', `unsolvable types: ${UNSOLVABLE_TYPES.join(', ')}`, commaList)
        .option('--parents <n>', 'holistic parents, a seeded sample (default 100)', positiveInt)
        .option('--all-parents', 'make every holistic case unsolvable'),
    fields: (options) => ({
      types: options.types,
      parents: options.allParents ? null : options.parents,
    }),
  },
  {
    step: 'efficiency',
    description:
      'B.5: cost-annotated tool banks (composite and trap tools); --solved-by keeps what every run solved',
    options: (command) =>
      command.option(
        '--solved-by <run-dir>',
        'keep only cases this run solved (repeat for several runs)',
        collect,
      ),
    fields: (options) => ({
      solved_by: (options.solvedBy as string[] | undefined)?.map((dir) => path.resolve(dir)),
    }),
  },
];

/** Registers `apb construct` and its subcommands. */
export function registerConstructCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  const construct = program
    .command('construct')
    .description(
      'build APB cases from tasks or trajectories (paper §3.2, Appendix B); see docs/construction.md',
    );
  for (const { step, description, options: addOptions, fields } of STEPS) {
    const command = addOptions(addCommonOptions(construct.command(step).description(description)));
    command.action(async (options: Record<string, unknown>) =>
      runOne(step, fields(options), options, outcome, limits),
    );
  }
  addModelOptions(
    construct
      .command('pipeline')
      .description('run a chain of steps from a JSON or YAML config into one dataset')
      .requiredOption('--config <file>', 'the pipeline config (docs/construction.md, "pipeline")')
      .option('--out <dir>', "output directory (overrides the config's out)")
      .option('--seed <n>', "seed (overrides the config's)", nonNegativeInt)
      .option('--llm <spec>', "model of the steps that can use one (overrides the config's)"),
  ).action(async (options: Record<string, unknown>) => {
    const config = readPipelineConfig(options.config as string);
    await runPipelineCommand(config, options, engineOptions(options), outcome, limits);
  });
}
