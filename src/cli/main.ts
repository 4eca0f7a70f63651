/**
 * argv → command. The ONLY place that prints errors and decides the exit code: an `ApbError`
 * becomes its message and a non-zero code; anything else is an internal error (stack with --debug).
 */
import { loadDotenv } from './dotenv.js';
import { Command, CommanderError } from 'commander';
import { ApbError, InputError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { DEFAULT_LIMITS, limitsFromEnv, type Limits } from '../limits.js';
import { redact } from '../redact.js';
import { APB_VERSION } from '../version.js';
import { registerAgreementCommand } from './commands/agreement.js';
import { registerConstructCommand } from './commands/construct.js';
import { registerDataCommands } from './commands/data.js';
import { registerExecCommand } from './commands/exec.js';
import { registerJudgeCommand } from './commands/judge.js';
import { registerMergeCommand } from './commands/merge.js';
import { registerRefineCommand } from './commands/refine.js';
import { registerReportCommand } from './commands/report.js';
import { registerRunCommand } from './commands/run.js';
import { registerScoreCommand } from './commands/score.js';
import { registerCompareCommand } from './commands/compare.js';
import { registerServeCommand } from './commands/serve.js';
import { EXIT, type CommandOutcome } from './outcome.js';
import { say } from './terminal.js';

/**
 * The program and its commands; `limits` (the `APB_MAX_*` caps, read once by `main`) goes into
 * every spec a command builds.
 */
export function buildProgram(outcome: CommandOutcome, limits: Limits = DEFAULT_LIMITS): Command {
  const program = new Command('apb')
    .description(
      "Agent Planning Benchmark harness: run planners, judge plans, report the paper's tables",
    )
    .version(APB_VERSION)
    .option('--debug', 'print stack traces of internal errors')
    .exitOverride()
    .configureOutput({
      writeErr: (text) => process.stderr.write(text),
      outputError: (text, write) => write(`apb: ${text.replace(/^error: /, '')}`),
    });
  registerRunCommand(program, outcome, limits);
  registerDataCommands(program, outcome, limits);
  registerScoreCommand(program, outcome, limits);
  registerCompareCommand(program, outcome, limits);
  registerReportCommand(program, outcome, limits);
  registerJudgeCommand(program, outcome, limits);
  registerAgreementCommand(program, outcome, limits);
  registerServeCommand(program, outcome, limits);
  registerMergeCommand(program, outcome, limits);
  registerRefineCommand(program, outcome, limits);
  registerExecCommand(program, outcome, limits);
  registerConstructCommand(program, outcome, limits);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Error codes that mean the user's arguments or input are wrong (exit 2); every other `ApbError` is exit 1. */
const USAGE_CODES = new Set(['usage', 'run-mismatch', 'input', 'locked']);

/**
 * The first word of `argv` that names no command (at the top level, or under a command that has
 * subcommands such as `data`), `help WORD` included. Commander would print the top-level help and
 * exit 0 for `apb refine --help`; the contract says a command that does not exist exits 2.
 */
function unknownCommand(
  program: Command,
  argv: readonly string[],
): { word: string; parent: Command } | null {
  let command = program;
  const words = argv.filter((arg) => !arg.startsWith('-'));
  for (let index = 0; index < words.length && command.commands.length > 0; index += 1) {
    const word = words[index]!;
    if (word === 'help') continue;
    const next = command.commands.find(
      (child) => child.name() === word || child.aliases().includes(word),
    );
    if (!next) return { word, parent: command };
    command = next;
  }
  return null;
}

function reportError(error: unknown, debug: boolean): number {
  if (error instanceof CommanderError) {
    return error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
      ? EXIT.ok
      : EXIT.usage;
  }
  if (error instanceof InputError) {
    say(redact(error.message));
    say(`apb: ${error.issues.length} problem(s) in the input; nothing was run`);
    return EXIT.usage;
  }
  if (error instanceof ApbError) {
    say(`apb: ${redact(error.message)}`);
    return USAGE_CODES.has(error.code) ? EXIT.usage : EXIT.failure;
  }
  say(
    `apb: internal error: ${redact((error as Error)?.message ?? String(error))}${debug ? '' : ' (rerun with --debug for the stack)'}`,
  );
  if (debug) say(redact((error as Error)?.stack ?? ''));
  return EXIT.failure;
}

/** Runs the CLI and returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const outcome: CommandOutcome = { exitCode: EXIT.ok };
  let limits: Limits;
  try {
    loadDotenv();
    limits = limitsFromEnv(process.env);
  } catch (error) {
    return reportError(error, false);
  }
  const program = buildProgram(outcome, limits);
  const unknown = unknownCommand(program, argv);
  if (unknown) {
    const where = unknown.parent === program ? 'apb' : `apb ${unknown.parent.name()}`;
    const names = unknown.parent.commands.map((child) => child.name());
    say(
      `${where}: unknown command "${unknown.word}" (commands: ${names.join(', ')})${didYouMean(unknown.word, names).replace(' (', '; ').replace(/\)$/, '')}`,
    );
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return outcome.exitCode;
  } catch (error) {
    return reportError(error, argv.includes('--debug'));
  }
}
