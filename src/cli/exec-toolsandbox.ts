/**
 * `apb exec --env toolsandbox …`: the scenario selection (`--subset`, `--scenarios`, `--variants`),
 * the clock (`--clock`) and `--dump-state`, then the replay path (`--agent replay:FILE`) or the
 * model path (`--mode … --model …`, the same machinery as tau2's), each a library function of
 * engine/ (`replayToolSandbox`, `runModelExecution`); the printed summary.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import {
  createToolSandboxEnvironment,
  type ToolSandboxEnvironment,
} from '../execution/environments/toolsandbox/environment.js';
import type { ScenarioSelection } from '../execution/environments/toolsandbox/subsets.js';
import { replayToolSandbox } from '../engine/exec-toolsandbox.js';
import { runModelExec, type ModelExecFlags } from './exec-model.js';
import { handleInterrupts } from './interrupts.js';
import { EXIT, type CommandOutcome } from './outcome.js';
import { say } from './terminal.js';

/** The ToolSandbox flags of `apb exec` (beside the model path's). */
export interface ToolSandboxFlags extends Partial<ModelExecFlags> {
  agent?: string;
  scenarios?: string[];
  variants?: string[];
  subset?: string;
  clock?: string;
  dumpState?: string;
  dumpDb?: string;
  tasks?: string[];
  limit?: number;
  out?: string;
}

function selectionOf(flags: ToolSandboxFlags): ScenarioSelection {
  const subset = flags.subset ?? 'offline';
  return {
    subset: subset === 'offline' || subset === 'all' ? subset : { file: path.resolve(subset) },
    ...(flags.scenarios ? { scenarios: flags.scenarios } : {}),
    ...(flags.variants ? { variants: flags.variants } : {}),
  };
}

function environmentOf(flags: ToolSandboxFlags): ToolSandboxEnvironment {
  if (flags.tasks || flags.dumpDb)
    throw new UsageError(
      `--env toolsandbox selects with --scenarios, --variants and --subset, and dumps with --dump-state (not ${flags.tasks ? '--tasks' : '--dump-db'})`,
    );
  if (flags.subset && !['offline', 'all'].includes(flags.subset) && !existsSync(flags.subset))
    throw new UsageError(
      `--subset must be offline, all or a file of scenario names (no file ${flags.subset})`,
    );
  const environment = createToolSandboxEnvironment({
    ...(flags.clock ? { clock: flags.clock } : {}),
    selection: selectionOf(flags),
    dumpStateDir: flags.dumpState ? path.resolve(flags.dumpState) : null,
  });
  if (environment.tasks.length === 0) throw new UsageError('no ToolSandbox scenario is selected');
  return environment;
}

/** Runs `apb exec --env toolsandbox`. */
export async function runToolSandboxExec(
  flags: ToolSandboxFlags,
  outcome: CommandOutcome,
): Promise<void> {
  const environment = environmentOf(flags);
  const limited = flags.limit ? environment.tasks.slice(0, flags.limit) : environment.tasks;
  if (!flags.agent) {
    if (!flags.mode)
      throw new UsageError(
        'apb exec --env toolsandbox needs --agent replay:FILE, or --mode direct|plan-first|refine with --model SPEC',
      );
    const outDir = path.resolve(flags.out ?? path.join('runs', 'exec-toolsandbox'));
    return runModelExec(environment, limited, outDir, flags as ModelExecFlags, outcome);
  }
  if (flags.mode)
    throw new UsageError(
      '--agent replay:… and --mode exclude each other: a scripted agent has no mode',
    );
  if (!flags.agent.startsWith('replay:') || flags.agent === 'replay:gold')
    throw new UsageError(`--env toolsandbox takes --agent replay:FILE (got "${flags.agent}")`);
  if (!flags.out) throw new UsageError('apb exec needs --out DIR');
  const file = path.resolve(flags.agent.slice('replay:'.length));
  if (!existsSync(file)) throw new UsageError(`--agent ${flags.agent}: no file ${file}`);
  const interrupts = handleInterrupts();
  try {
    const summary = await replayToolSandbox({
      environment: { ...environment, tasks: limited },
      replayFile: file,
      agent: flags.agent,
      outDir: path.resolve(flags.out),
      dumpStateDir: flags.dumpState ? path.resolve(flags.dumpState) : null,
      stop: interrupts.stop,
      signal: interrupts.cancel,
    });
    if (flags.json)
      process.stdout.write(
        `${JSON.stringify({ command: 'exec', env: 'toolsandbox', ...summary }, null, 2)}\n`,
      );
    else if (!flags.quiet)
      say(
        `apb: toolsandbox ${flags.agent}: ${summary.scenarios} scenario(s), mean similarity ${summary.meanSimilarity?.toFixed(4) ?? '-'}, ${summary.minefieldHits} minefield hit(s); ${summary.executionsFile}`,
      );
    outcome.exitCode = summary.interrupted ? EXIT.interrupted : EXIT.ok;
  } finally {
    interrupts.dispose();
  }
}
