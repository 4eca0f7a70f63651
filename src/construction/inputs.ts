/** Reading a step's other inputs: trajectory files (`import --from trajectories`) and distractor pools (`--pool`). */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { containedFile } from '../dataset/contained-file.js';
import { normalizeTool } from '../dataset/normalize.js';
import { ToolDefinitionSchema } from '../dataset/record-schema.js';
import { InputError, UsageError, type InputIssue } from '../errors.js';
import { parseUntrustedJson } from '../json-depth.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { sourceAttachments, type Attachment } from './case-record.js';
import { NON_FINITE_MESSAGE, nonFinitePath } from './finite.js';
import { importTrajectoryLine } from './import-trajectories.js';
import type { SourceRecord, SourceTool } from './source-record.js';
import { display, jsonLines } from './store.js';

/** The `.jsonl` files named: each file as given, each directory's `*.jsonl` in name order. */
export function jsonlFiles(inputs: readonly string[]): string[] {
  return inputs.flatMap((input) => {
    if (!existsSync(input)) throw new UsageError(`input not found: ${input}`);
    if (!statSync(input).isDirectory()) return [input];
    const files = readdirSync(input)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .map((name) => path.join(input, name));
    if (files.length === 0) throw new UsageError(`${input} holds no .jsonl file`);
    return files;
  });
}

/** Source records of trajectory files, with their attachments (relative to each file's folder); every problem refuses the input. */
export async function readTrajectories(
  inputs: readonly string[],
  limits: Limits = DEFAULT_LIMITS,
): Promise<{ records: SourceRecord[]; attachments: Attachment[] }> {
  const records: SourceRecord[] = [];
  const attachments: Attachment[] = [];
  const issues: InputIssue[] = [];
  const seen = new Map<string, string>();
  for (const file of jsonlFiles(inputs)) {
    const idPrefix = path.basename(file, '.jsonl');
    for await (const { line, value } of jsonLines(file, issues, limits)) {
      const origin = { file: display(file), line, idPrefix, jsonDepth: limits.jsonDepth };
      const imported = importTrajectoryLine(value, origin);
      if (!imported.ok) {
        issues.push(...imported.issues);
        continue;
      }
      const at = nonFinitePath(imported.record);
      if (at !== null) {
        issues.push({ file: display(file), line, field: at, message: NON_FINITE_MESSAGE });
        continue;
      }
      const where = `${display(file)}:${line}`;
      const earlier = seen.get(imported.record.id);
      if (earlier)
        issues.push({
          file: display(file),
          line,
          field: 'id',
          message: `duplicate id "${imported.record.id}" (first at ${earlier})`,
        });
      seen.set(imported.record.id, where);
      records.push(imported.record);
      imported.record.files.forEach((entry, index) => {
        const found = containedFile(
          path.dirname(file),
          typeof entry === 'string' ? entry : entry.path,
          limits.fileBytes,
          'APB_MAX_FILE_BYTES',
        );
        if (!found.ok)
          issues.push({
            file: display(file),
            line,
            field: `files[${index}].path`,
            message: found.message,
          });
      });
      attachments.push(...sourceAttachments(imported.record, path.dirname(file)));
    }
  }
  if (issues.length > 0) throw new InputError(issues);
  return { records, attachments };
}

/** Tool definitions of pool files: a JSON array of tools, or one tool per JSONL line. */
export async function readPool(
  files: readonly string[],
  limits: Limits = DEFAULT_LIMITS,
): Promise<SourceTool[]> {
  const tools: SourceTool[] = [];
  const issues: InputIssue[] = [];
  const take = (value: unknown, file: string, line: number, field: string) => {
    const parsed = ToolDefinitionSchema.safeParse(value);
    if (parsed.success) tools.push(normalizeTool(parsed.data) as SourceTool);
    else
      issues.push({
        file: display(file),
        line,
        field,
        message: parsed.error.issues[0]?.message ?? 'not a tool definition',
      });
  };
  for (const file of files) {
    if (!existsSync(file)) throw new UsageError(`--pool file not found: ${file}`);
    const text = readFileSync(file, 'utf8').trim();
    if (text.startsWith('[')) {
      let list: unknown;
      try {
        list = parseUntrustedJson(text, limits.jsonDepth);
      } catch (error) {
        issues.push({
          file: display(file),
          line: 1,
          field: '(file)',
          message: `invalid JSON: ${(error as Error).message}`,
        });
        continue;
      }
      const at = nonFinitePath(list);
      if (at !== null)
        issues.push({ file: display(file), line: 1, field: at, message: NON_FINITE_MESSAGE });
      else (list as unknown[]).forEach((value, index) => take(value, file, 1, `[${index}]`));
      continue;
    }
    for await (const { line, value } of jsonLines(file, issues, limits))
      take(value, file, line, '(line)');
  }
  if (issues.length > 0) throw new InputError(issues);
  return tools;
}
