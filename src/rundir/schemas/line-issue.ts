/**
 * zod issues → the project's one-line input errors (`FILE:LINE: field: message`), so every run file
 * reader reports a bad line the same way.
 */
import type { z } from 'zod';
import { InputError, type InputIssue } from '../../errors.js';

/** The field path of a zod issue as `apb.prediction.status` (`(line)` for the whole line). */
export function fieldOf(issue: z.core.$ZodIssue): string {
  return issue.path.length === 0 ? '(line)' : issue.path.map(String).join('.');
}

/** The first issue of a failed parse as `{ field, message }` (one line: the first is the one to fix). */
export function firstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  return issue
    ? { field: fieldOf(issue), message: issue.message }
    : { field: '(line)', message: 'invalid' };
}

/** Parses `value` (line `line` of `file`) with `schema`; a mismatch throws an `InputError` naming the field. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: { file: string; line: number },
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new InputError([issueAt(where, parsed.error)]);
}

/** The `InputIssue` of a failed parse at `where`. */
export function issueAt(where: { file: string; line: number }, error: z.ZodError): InputIssue {
  return { file: where.file, line: where.line, ...firstIssue(error) };
}
