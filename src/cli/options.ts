/** Option parsers shared by the commands: a bad value is a usage error naming the option. */
import { InvalidArgumentError } from 'commander';

export function positiveInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return number;
}

export function nonNegativeInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return number;
}

export function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return number;
}

export function temperature(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 2) throw new InvalidArgumentError(`expected a temperature between 0 and 2, got "${value}"`);
  return number;
}

/** Collects a repeatable option into a list (`--judge A --judge B`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function commaList(value: string): string[] {
  return value.split(',').map((item) => item.trim()).filter(Boolean);
}
