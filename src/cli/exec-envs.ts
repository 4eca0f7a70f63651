/**
 * `apb exec --env tau2:retail,tau2:airline,tau2:telecom --mode …`: one model run per environment,
 * each in its own run directory `OUT/<env>/` (its identity, resume and reports as a one-environment
 * run), then the scores and reports of all of them pooled in `OUT/`: Table 3 with each environment's
 * rows, the floors, and the pooled `tau2` row the paper's 200-task row is compared with.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EXEC_MANIFEST_FILE, type ExecManifest } from '../execution/exec-manifest.js';
import type { Environment, ExecTask } from '../execution/environment.js';
import { costOfCall } from '../pipeline/budget.js';
import { buildExecSummary } from '../report/exec-summary.js';
import { writeExecOutputs } from '../report/write-exec-reports.js';
import { POOLED_TAU2 } from '../metrics/executable-pooled.js';
import { runModelExec, type ModelExecFlags } from './exec-model.js';
import { EXIT, type CommandOutcome } from './outcome.js';
import { printSummary, shown } from './summary-text.js';

/** One environment of the run and its selected tasks. */
export interface EnvSelection {
  environment: Environment;
  tasks: readonly ExecTask[];
}

/** `tau2:retail` → `tau2-retail`: the environment's sub-directory. */
export const envDirName = (id: string) => id.replace(/[^A-Za-z0-9._-]+/g, '-');

/** The pooled status (the first environment's that is not `complete`) and 429s, from each environment's manifest. */
function invocationOf(dirs: readonly string[]) {
  const manifests = dirs.map(
    (dir) => JSON.parse(readFileSync(path.join(dir, EXEC_MANIFEST_FILE), 'utf8')) as ExecManifest,
  );
  const endpoints = manifests.flatMap((manifest) => manifest.endpoints ?? []);
  return {
    status: manifests.find((manifest) => manifest.status !== 'complete')?.status ?? 'complete',
    // Retries are counted per invocation of an environment and printed in its own summary.
    retries: 0,
    rateLimited:
      endpoints.length > 0 ? endpoints.reduce((sum, entry) => sum + entry.rate_limited, 0) : null,
  };
}

/** Runs each environment into `outDir/<env>/`, then writes the pooled scores and reports into `outDir`. */
export async function runModelExecEnvs(
  selections: readonly EnvSelection[],
  outDir: string,
  flags: ModelExecFlags,
  outcome: CommandOutcome,
): Promise<void> {
  const started = Date.now();
  const dirs: string[] = [];
  for (const { environment, tasks } of selections) {
    const dir = path.join(outDir, envDirName(environment.id));
    dirs.push(dir);
    // --json: one summary object on stdout, the pooled one; each environment's is left out.
    await runModelExec(
      environment,
      tasks,
      dir,
      flags.json ? { ...flags, quiet: true } : flags,
      outcome,
    );
    if (outcome.exitCode !== EXIT.ok) return; // interrupted: the next environment does not start
  }
  if (flags.dryRun) return; // each environment's plan is printed; nothing is written
  const scores = await writeExecOutputs(outDir, costOfCall, {
    comparePaper: flags.comparePaper === true,
    sources: dirs,
    limits: flags.limits,
  });
  const model = scores.players?.agents[0] ?? flags.model ?? 'model';
  printSummary(
    { quiet: Boolean(flags.quiet), json: Boolean(flags.json) },
    buildExecSummary(scores, {
      command: 'exec',
      wallMs: Date.now() - started,
      dir: shown(outDir),
      env: POOLED_TAU2,
      model,
      judge: scores.players?.plan_judges.join(', ') || (flags.judge ?? 'rules'),
      ...invocationOf(dirs),
      reportHtml: shown(path.join(outDir, 'report.html')),
      reportMd: shown(path.join(outDir, 'report.md')),
      viewCommand: `npx apb view ${shown(path.join(outDir, envDirName(selections[0]!.environment.id)))}`,
    }),
  );
}
