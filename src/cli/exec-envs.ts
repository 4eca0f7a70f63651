/**
 * `apb exec --env tau2:retail,tau2:airline,tau2:telecom --mode …`: the flags mapped to
 * `runModelExecutions`' spec (src/engine/exec-envs.ts: one run per environment in `OUT/<env>/`,
 * then the pooled scores and reports in `OUT/`), each environment's summary and the pooled one
 * printed.
 */
import path from 'node:path';
import {
  envDirName,
  runModelExecutions,
  type EnvSelection,
  type EnvironmentExecution,
  type ModelExecutionsSummary,
} from '../engine/exec-envs.js';
import type { ExecScores } from '../execution/exec-scores.js';
import { buildExecSummary } from '../report/exec-summary.js';
import { POOLED_TAU2 } from '../metrics/executable-pooled.js';
import {
  hooksOf,
  modelOf,
  printDryRun,
  printModelSummary,
  specOf,
  type ModelExecFlags,
} from './exec-model.js';
import { handleInterrupts } from './interrupts.js';
import { EXIT, type CommandOutcome } from './outcome.js';
import { printSummary, shown } from './summary-text.js';

/** Runs each environment into `outDir/<env>/`, then prints the pooled summary of `outDir`. */
export async function runModelExecEnvs(
  selections: readonly EnvSelection[],
  outDir: string,
  flags: ModelExecFlags,
  outcome: CommandOutcome,
): Promise<void> {
  const started = Date.now();
  const model = modelOf(flags);
  // --dry-run: each environment's plan is printed; nothing is written.
  if (flags.dryRun)
    return selections.forEach(({ environment, tasks }) =>
      printDryRun(environment, tasks, flags, model),
    );
  // Under --json stdout holds one object: the pooled summary, or, when the run is interrupted,
  // the summary of the environment it stopped in. Each environment's run is quiet (no progress
  // line, no notices).
  const each = flags.json ? { ...flags, quiet: true } : flags;
  let last: EnvironmentExecution | null = null;
  const printEnvironment = (done: EnvironmentExecution) =>
    printModelSummary(each, done.summary, { env: done.env, outDir: done.dir, wallMs: done.wallMs });
  const interrupts = handleInterrupts();
  try {
    const result = await runModelExecutions(
      { ...specOf(outDir, flags, model), selections },
      {
        ...hooksOf(each, interrupts),
        onEnvironment: (done) => (flags.json ? (last = done) : printEnvironment(done)),
      },
    );
    outcome.exitCode = result.interrupted ? EXIT.interrupted : EXIT.ok;
    if (result.scores) printPooled(flags, result, result.scores, { outDir, started, selections });
    else if (last) printEnvironment(last);
  } finally {
    interrupts.dispose();
  }
}

/** The pooled summary of `outDir`: Table 3's pooled `tau2` row and the reports beside it. */
function printPooled(
  flags: ModelExecFlags,
  result: ModelExecutionsSummary,
  scores: ExecScores,
  run: { outDir: string; started: number; selections: readonly EnvSelection[] },
): void {
  const { outDir } = run;
  const first = path.join(outDir, envDirName(run.selections[0]!.environment.id));
  printSummary(
    { quiet: Boolean(flags.quiet), json: Boolean(flags.json) },
    buildExecSummary(scores, {
      command: 'exec',
      wallMs: Date.now() - run.started,
      dir: shown(outDir),
      env: POOLED_TAU2,
      model: result.agent,
      judge: result.judge,
      status: result.status,
      // Retries are counted per invocation of an environment and printed in its own summary.
      retries: 0,
      rateLimited: result.rateLimited,
      reportHtml: shown(path.join(outDir, 'report.html')),
      reportMd: shown(path.join(outDir, 'report.md')),
      viewCommand: `npx apb view ${shown(first)}`,
    }),
  );
}
