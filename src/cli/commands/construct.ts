/**
 * `apb construct STEP --in DIR --out DIR [--seed S] [--llm SPEC] …` and `apb construct pipeline
 * --config FILE` (paper §3.2, Appendix B): each step of the construction pipeline as a subcommand.
 */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { Command } from 'commander';
import path from 'node:path';
import { StepSpecSchema, type StepSpec } from '../../construction/step-spec.js';
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
import { addCommonOptions, addModelOptions, STEPS } from './construct-flags.js';
import { engineOptionsOf, nonNegativeInt, type EngineFlags } from '../options.js';
import { say } from '../terminal.js';

/** The engine options (calls, cache, budget, dry run) of a step or the pipeline, from its flags. */
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
