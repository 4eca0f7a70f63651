/** Option parsers shared by the commands: a bad value is a usage error naming the option. */
import { ENGINE_DEFAULTS } from '../defaults.js';
import { InvalidArgumentError, type Command } from 'commander';
import { didYouMean } from '../did-you-mean.js';
import type { EngineOptions } from '../engine/providers.js';

/** Parses a positive integer option value. */
export function positiveInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return number;
}

/** Parses a non-negative integer option value. */
export function nonNegativeInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return number;
}

/** Parses a positive number option value. */
export function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return number;
}

/** Parses a TCP port: 0 (any free port) to 65535. */
export function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535)
    throw new InvalidArgumentError(
      `expected a port from 0 (any free port) to 65535, got "${value}"`,
    );
  return number;
}

/** Parses a sampling temperature (0 to 2). */
export function temperature(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 2)
    throw new InvalidArgumentError(`expected a temperature between 0 and 2, got "${value}"`);
  return number;
}

/** Collects a repeatable option into a list (`--judge A --judge B`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * A parser for an option whose value must be one of a fixed set: anything else is a usage error
 * (exit 2) printed as one line naming the option, the value and the allowed values.
 */
export function choice<T extends string>(allowed: readonly T[]): (value: string) => T {
  return (value: string) => {
    if ((allowed as readonly string[]).includes(value)) return value as T;
    throw new InvalidArgumentError(
      `allowed values: ${allowed.join(', ')}${didYouMean(value, allowed)}`,
    );
  };
}

/** Splits a comma-separated option value. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The engine flags a model-calling command shares (limits, retries, timeout, cache), as commander parses them. */
export type EngineFlags = Pick<
  EngineOptions,
  'concurrency' | 'rpm' | 'tpm' | 'timeoutMs' | 'maxRetries' | 'cache'
>;

/** Registers the engine flags on `command`; `unit` names what `--concurrency` counts (cases, answers…). */
export function addEngineOptions(command: Command, unit: string): Command {
  return command
    .option(
      '--concurrency <n>',
      `${unit} in flight at once`,
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
    .option('--no-cache', 'bypass the response cache (no read, no write)');
}

/** The engine flags as the library's engine knobs (unset caps left out). */
export function engineOptionsOf(flags: EngineFlags): EngineFlags {
  return {
    concurrency: flags.concurrency,
    ...(flags.rpm ? { rpm: flags.rpm } : {}),
    ...(flags.tpm ? { tpm: flags.tpm } : {}),
    timeoutMs: flags.timeoutMs,
    maxRetries: flags.maxRetries,
    cache: flags.cache,
  };
}
