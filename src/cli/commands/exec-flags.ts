/**
 * The flags of `apb exec`, in three groups plus ToolSandbox's: what runs (environment, tasks, the
 * scripted agent, the judge and its calls), the model agent, and the reports and output.
 */
import type { Command } from 'commander';
import { EXEC_DEFAULTS } from '../../defaults.js';
import { commaList, nonNegativeInt, positiveInt, positiveNumber, temperature } from '../options.js';

/** The environment, the scripted agent, the tasks, the directory, the judge and its calls. */
export function withTaskFlags(command: Command): Command {
  const selection = command
    .requiredOption(
      '--env <id>',
      'environment: tau2:retail, tau2:airline, tau2:telecom or toolsandbox; with --mode, several tau2 domains separated by commas (pooled tau2 row)',
    )
    .option(
      '--subset <name|file>',
      'tau2: paper200 (data/tau2/paper200.json, 200 tasks over the three domains) or a JSON file {"tasks": {ENV: [ID, …]}}; toolsandbox: offline (the 728, default), all (1,032) or FILE (a name a line)',
    );
  return withToolSandboxFlags(selection)
    .option(
      '--agent <spec>',
      "a scripted agent: replay:FILE (JSONL, one line per task) or replay:gold (every task's reference actions); or your own agent as module:PATH, cmd:COMMAND or http:URL (turn by turn, with --user-model; docs/own-planner.md)",
    )
    .option('--tasks <ids>', 'only these task ids (comma-separated)', commaList)
    .option(
      '--task-split <name>',
      "the environment's split: train, test, base (every task of retail and airline; telecom's usual 114), small or full (telecom), or all",
      'base',
    )
    .option('--limit <n>', 'the first N selected tasks', positiveInt)
    .option(
      '--dump-db <dir>',
      "write each task's final database to DIR/<task_id>.json (telecom: {agent, user})",
    )
    .option('--out <dir>', 'run directory: executions.jsonl and manifest.json')
    .option(
      '--judge <spec>',
      'LLM judge of NL assertions (PROVIDER:MODEL); without it they are reported as not evaluated',
    )
    .option('--judge-base-url <url>', 'endpoint of the judge model')
    .option(
      '--timeout-ms <n>',
      'per-request timeout of every model call (the agent, user simulator, critic and judge; a replay: the NL-assertion judge)',
      positiveInt,
      EXEC_DEFAULTS.timeoutMs,
    )
    .option(
      '--max-retries <n>',
      'retries of a retryable failure of a model call (429, 5xx, timeout), the same calls as --timeout-ms',
      nonNegativeInt,
      EXEC_DEFAULTS.maxRetries,
    )
    .option('--no-cache', 'bypass the response cache (no read, no write)');
}

/** The model agent: modes, the tested model, the user simulator, the critic, trials and limits. */
export function withModelAgentFlags(command: Command): Command {
  return command
    .option(
      '--mode <modes>',
      'model agent: direct, plan-first, refine, or several separated by commas',
    )
    .option(
      '--model <spec>',
      'model agent: the tested model (agent, planner, reviser), PROVIDER:MODEL',
    )
    .option('--base-url <url>', 'endpoint of the tested model')
    .option(
      '--user-model <spec>',
      'the user simulator (default: the --judge model when given, else the tested model)',
    )
    .option('--no-nl-judge', 'leave NL assertions unjudged (reward null) even with a --judge')
    .option('--user-base-url <url>', 'endpoint of the user simulator')
    .option(
      '--critic <spec>',
      'refine: who critiques the draft plan (default: the tested model itself)',
    )
    .option('--critic-base-url <url>', 'endpoint of the critic')
    .option('--metric', "refine: critique with APB's E1–E6 taxonomy (default)", true)
    .option('--no-metric', 'refine: a general critique without the taxonomy')
    .option('--trials <k>', 'run every task K times (pass^k)', positiveInt, EXEC_DEFAULTS.trials)
    .option(
      '--max-steps <n>',
      'steps per conversation before it is cut (tau2: 200)',
      positiveInt,
      EXEC_DEFAULTS.maxSteps,
    )
    .option(
      '--concurrency <n>',
      'tasks in flight at once (and requests per endpoint)',
      positiveInt,
      EXEC_DEFAULTS.concurrency,
    )
    .option(
      '--max-cost <usd>',
      'stop starting new calls once this much would be spent',
      positiveNumber,
    )
    .option('--temperature <t>', 'sampling temperature of the tested model', temperature)
    .option('--user-temperature <t>', 'sampling temperature of the user simulator', temperature);
}

/** The reports, resuming after errors, and what is printed. */
export function withRunFlags(command: Command): Command {
  return command
    .option(
      '--compare-paper',
      "put the paper's Table 3 (τ²-bench rows) beside ours in the reports",
      false,
    )
    .option(
      '--retry-errors',
      'in an existing run directory, run again what infrastructure errors left (failed model calls), keeping every finished execution',
      false,
    )
    .option(
      '--quiet',
      'print nothing but warnings and errors (no progress line, no summary)',
      false,
    )
    .option(
      '--json',
      'print the end-of-run summary as JSON on stdout (a replay: its counts)',
      false,
    )
    .option('--dry-run', 'print what the run would execute; call nothing, write nothing', false);
}

/** ToolSandbox's own selection, clock and state dump. */
function withToolSandboxFlags(command: Command): Command {
  return command
    .option(
      '--scenarios <names>',
      'toolsandbox: only these base scenarios (all their variants)',
      commaList,
    )
    .option(
      '--variants <list>',
      'toolsandbox: only these variants (base, 3_distraction_tools, …)',
      commaList,
    )
    .option(
      '--clock <iso>',
      'toolsandbox: the instant every "now" reads (default 2024-09-02T12:00:00Z)',
    )
    .option(
      '--dump-state <dir>',
      "toolsandbox: write each scenario's final databases and message log to DIR",
    );
}
