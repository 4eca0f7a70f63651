/** `apb refine RUN_DIR --mode self|critic --out DIR`: critique and revise a finished run's answers, judge them, fill Table 4. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { addModelFlags } from '../model-flags.js';
import path from 'node:path';
import type { Command } from 'commander';
import { SPLITS } from '../../dataset/case.js';
import { panelId } from '../../judge/panel.js';
import { estimateRefine, formatRefineDryRun } from '../../pipeline/refine-dry-run.js';
import { runRefinement } from '../../engine/refine.js';
import { limitHeapGrowth } from '../heap.js';
import { handleInterrupts } from '../interrupts.js';
import { EXIT, type CommandOutcome } from '../outcome.js';
import {
  addEngineOptions,
  choice,
  collect,
  commaList,
  engineOptionsOf,
  positiveInt,
  positiveNumber,
} from '../options.js';
import { createProgressReporter } from '../progress.js';
import { defaultCacheDir } from '../../engine/providers.js';
import { refinementOf, type Refinement, type RefineOptions } from '../refine-options.js';
import { buildRefineSummary, table4Lines } from '../refine-summary.js';
import { formatSummary } from '../summary-text.js';
import { say } from '../terminal.js';

/** `--dry-run`: the calls, tokens and cost the refinement would take. */
function printDryRun(refinement: Refinement, maxCost: number | undefined): void {
  const { judges } = refinement;
  const estimate = estimateRefine({
    source: refinement.source,
    setup: refinement.setup,
    testedModel: refinement.testedModel,
    critic: refinement.setup.critic,
    judges,
    judgeId: judges.length === 1 ? judges[0]! : panelId(judges),
    judgeOptions: { protocol: refinement.protocol, blind: refinement.judgeBlind },
  });
  process.stdout.write(formatRefineDryRun(estimate, maxCost));
}

async function refineAction(
  runDir: string,
  options: RefineOptions,
  outcome: CommandOutcome,
  limits: Limits,
): Promise<void> {
  const started = Date.now();
  const refinement = await refinementOf(runDir, options, limits);
  if (options.dryRun) return printDryRun(refinement, options.maxCost);
  limitHeapGrowth();
  const interrupts = handleInterrupts();
  try {
    const outDir = path.resolve(options.out!);
    const summary = await runRefinement(
      {
        ...refinement,
        limits,
        outDir,
        engine: { ...engineOptionsOf(options), cacheDir: defaultCacheDir(process.env) },
        ...(options.maxCost ? { maxCost: options.maxCost } : {}),
      },
      {
        reporter: createProgressReporter({
          tty: Boolean(process.stderr.isTTY),
          quiet: options.quiet || options.json,
          summary: true,
        }),
        stop: interrupts.stop,
        signal: interrupts.cancel,
      },
    );
    const { summary: endOfRun, table4 } = await buildRefineSummary(
      outDir,
      summary,
      Date.now() - started,
      limits,
    );
    if (options.json) process.stdout.write(`${JSON.stringify({ ...endOfRun, table4 }, null, 2)}\n`);
    else if (!options.quiet)
      for (const line of [...formatSummary(endOfRun), ...table4Lines(table4)]) say(line);
    outcome.exitCode = summary.interrupted ? EXIT.interrupted : EXIT.ok;
  } finally {
    interrupts.dispose();
  }
}

export function registerRefineCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  const command = program
    .command('refine')
    .description(
      'critique and revise the saved answers of a run (self or critic, with or without the E1–E6 taxonomy), judge them, fill Table 4',
    )
    .argument(
      '<run-dir>',
      'a run directory written by apb run: its answers are the initial answers (never regenerated, never modified)',
    )
    .option(
      '--mode <mode>',
      'self (the tested model critiques its own answer) or critic (--critic does)',
      choice(['self', 'critic'] as const),
    )
    .option(
      '--critic <spec>',
      'critic model, PROVIDER:MODEL or module:|cmd:|http: (with --mode critic)',
    )
    .option('--critic-base-url <url>', 'endpoint of the critic model')
    .option('--metric', "critique with the paper's error taxonomy", true)
    .option('--no-metric', 'a general critique, without the taxonomy')
    .option(
      '--rounds <n>',
      'critique → revision rounds; the last one is scored, every one is kept',
      positiveInt,
      1,
    )
    .option('--splits <list>', `all, holistic, step_wise, or split names (${SPLITS.join(', ')})`)
    .option('--ids <list>', 'only these case ids (comma-separated)', commaList)
    .option(
      '--horizons <list>',
      'step-wise horizons to refine, e.g. 1 (the paper refines next-1)',
      commaList,
    )
    .option(
      '--sample <kind>',
      "paper: the paper's 25 per source + 5 per real-traffic subset, first in file order; hashed: the same quotas drawn by --seed",
    )
    .option(
      '--sample-per-source <n>',
      'N cases per source of each split (alone: a seeded hashed sample; with --sample: its quota)',
      positiveInt,
    )
    .option(
      '--sample-per-subset <source:n>',
      'sample SOURCE per subset instead, N per subset (the paper: 5 per real-traffic subset); repeatable',
      collect,
    )
    .option('--seed <s>', 'seed of the sample', '0');
  withOutputFlags(command);
  addModelFlags(command, 'critic-', 'the critic (with --mode critic; default temperature 0)');
  addModelFlags(command, 'judge-', 'every LLM judge (its temperature stays 0)', ['temperature']);
  addEngineOptions(command, 'answers').action(refineActionOf(outcome, limits));
}

/** The action of `apb refine`, with the outcome it reports and the caps `main` read. */
const refineActionOf =
  (outcome: CommandOutcome, limits: Limits) => (runDir: string, options: RefineOptions) =>
    refineAction(runDir, options, outcome, limits);

/** The limit, the judges, the directories, the budget, and what is printed. */
function withOutputFlags(command: Command): Command {
  return command
    .option(
      '--limit <n>',
      'first N cases of each split, in dataset order (after the other filters)',
      positiveInt,
    )
    .option(
      '--judge <spec>',
      "judge the refined answers with this judge (repeat for a panel); default: the run's judge(s)",
      collect,
    )
    .option('--judge-base-url <url>', 'endpoint of the judge model')
    .option('--base-url <url>', "endpoint of the tested model, if it moved (default: the run's)")
    .option('--out <dir>', 'the refined run directory (resumable); required')
    .option('--data <dir>', "the run's dataset, if it has moved (its content must be unchanged)")
    .option(
      '--max-cost <usd>',
      'stop starting new calls once this much would be spent (critique, revision and judge calls)',
      positiveNumber,
    )
    .option(
      '--retry-errors',
      'in an existing directory, refine again the answers whose refinement failed (finished steps are not sent again)',
      false,
    )
    .option(
      '--dry-run',
      'print the critique, revision and judge calls, tokens and cost; call nothing, write nothing',
      false,
    )
    .option('--quiet', 'print only warnings and errors (no progress, no summary)', false)
    .option(
      '--json',
      'print the end-of-run summary as JSON on stdout (with Table 4), nothing else',
      false,
    );
}
