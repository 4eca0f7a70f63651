/** One dataset line → a `Case`, or every problem with it as `InputIssue`s (field paths included). */
import type { z } from 'zod';
import { acceptsAsIs } from './accepts-as-is.js';
import type { Case, CaseFile, CaseInput, CaseReference, SplitName } from './case.js';
import { SPLIT_REGIME } from './case.js';
import { casePartsOf, DatasetCase, type Decoded } from './dataset-case.js';
import { facetsOf } from './facets.js';
import type { FileResolver } from './files.js';
import {
  FileEntrySchema,
  JSON_FIELDS,
  RecordSchema,
  type JsonFieldName,
  type RawRecord,
} from './record-schema.js';
import type { InputIssue } from '../errors.js';
import { JsonTooDeepError, parseUntrustedJson } from '../json-depth.js';

/** Where a line came from, for messages. */
export interface LineOrigin {
  file: string;
  line: number;
  /** The split named by the file (`data/{split}.jsonl`), when the file is named after one. */
  fileSplit: SplitName | null;
}

export type ParsedLine = { ok: true; case: Case } | { ok: false; issues: InputIssue[] };

function fieldPath(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const key of path)
    out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || '(record)';
}

/** zod's message, made plainer: a missing field says so, and a rejected value is quoted. */
function messageOf(issue: z.core.$ZodIssue): string {
  const input = (issue as { input?: unknown }).input;
  if (issue.code === 'invalid_type' && input === undefined) return 'missing (required)';
  if ((issue.code === 'invalid_value' || issue.code === 'invalid_type') && input !== undefined) {
    const shown = JSON.stringify(input);
    return `${issue.message} (got ${shown && shown.length > 60 ? `${shown.slice(0, 57)}...` : shown})`;
  }
  return issue.message;
}

function zodIssues(origin: LineOrigin, base: string, error: z.ZodError): InputIssue[] {
  return error.issues.map((issue) => ({
    file: origin.file,
    line: origin.line,
    field: fieldPath(base, issue.path),
    message: messageOf(issue),
  }));
}

/**
 * zod's verdict on a value, asking zod only when the compiled test cannot say yes: a valid value
 * is used as it is (zod would return an equal copy), an invalid one gets zod's issues.
 */
function checker<S extends z.ZodType>(
  schema: S,
): (value: unknown) => z.ZodSafeParseResult<z.infer<S>> {
  const accepts = acceptsAsIs(schema);
  return (value) =>
    accepts(value)
      ? { success: true, data: value as z.infer<S> }
      : schema.safeParse(value, { reportInput: true });
}
const checkRecord = checker(RecordSchema);
const checkFileEntry = checker(FileEntrySchema);
const checkJsonField = Object.fromEntries(
  Object.entries(JSON_FIELDS).map(([field, schema]) => [field, checker(schema)]),
) as {
  [K in JsonFieldName]: (value: unknown) => z.ZodSafeParseResult<z.infer<(typeof JSON_FIELDS)[K]>>;
};

/** Decodes each `*_json` field (a JSON string, or the value itself when a converter already decoded it). */
function decodeJsonFields(
  record: RawRecord,
  origin: LineOrigin,
  issues: InputIssue[],
  { validate, jsonDepth }: RecordReading,
): Decoded {
  const decoded: Decoded = {};
  for (const field of Object.keys(JSON_FIELDS) as JsonFieldName[]) {
    let value = (record as Record<string, unknown>)[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'string') {
      try {
        value = validate ? parseUntrustedJson(value, jsonDepth) : JSON.parse(value);
      } catch (error) {
        issues.push({
          file: origin.file,
          line: origin.line,
          field,
          message:
            error instanceof JsonTooDeepError
              ? error.message
              : `not valid JSON (${(error as Error).message})`,
        });
        continue;
      }
    }
    if (!validate) {
      (decoded as Record<string, unknown>)[field] = value;
      continue;
    }
    const result = checkJsonField[field](value);
    if (result.success) (decoded as Record<string, unknown>)[field] = result.data;
    else issues.push(...zodIssues(origin, field, result.error));
  }
  return decoded;
}

function resolveFiles(
  record: RawRecord,
  origin: LineOrigin,
  resolver: FileResolver,
  issues: InputIssue[],
  validate: boolean,
): CaseFile[] {
  const files: CaseFile[] = [];
  (record.files ?? []).forEach((entry, index) => {
    const field = `files[${index}]`;
    const parsed = validate
      ? checkFileEntry(entry)
      : { success: true as const, data: entry as z.infer<typeof FileEntrySchema> };
    if (!parsed.success) return issues.push(...zodIssues(origin, field, parsed.error));
    const { path, type } =
      typeof parsed.data === 'string' ? { path: parsed.data, type: null } : parsed.data;
    const resolution = resolver.resolve(path, type ?? null);
    if (resolution.ok) files.push(resolution.file);
    else
      issues.push({
        file: origin.file,
        line: origin.line,
        field: `${field}.path`,
        message: resolution.message,
      });
  });
  return files;
}

/** Split-specific requirements: what a case of each split must carry to be runnable and judgeable. */
function checkSplitRequirements(
  record: RawRecord,
  input: CaseInput,
  reference: CaseReference,
  issue: (field: string, message: string) => void,
) {
  const split = record.split;
  const toolNames = new Set(input.tools.map((tool) => tool.name));
  if (SPLIT_REGIME[split] === 'Step-wise') {
    if (input.horizon === null) issue('prediction_horizon', `required for split ${split}`);
    if (reference.groundTruthSteps.length === 0 && split !== 'step_wise_tool_broken')
      issue('ground_truth_steps_json', 'must list at least one reference step');
  }
  if (
    ['holistic_planning', 'holistic_tool_extraneous', 'holistic_efficiency'].includes(split) &&
    reference.toolChain.length === 0
  ) {
    issue('tool_chain_json', `must list at least one reference step for split ${split}`);
  }
  if (split === 'holistic_unsolvable' && !reference.unsolvableType)
    issue('unsolvable_type', 'required for split holistic_unsolvable');
  if (split.endsWith('tool_extraneous')) {
    if (reference.extraneousToolNames.length === 0)
      issue('extraneous_tool_names_json', `must name the distractors of split ${split}`);
    reference.extraneousToolNames.forEach((name, index) => {
      if (!toolNames.has(name))
        issue(`extraneous_tool_names_json[${index}]`, `distractor "${name}" is not in tools_json`);
    });
  }
  if (split === 'step_wise_tool_broken') {
    if (!reference.brokenToolName)
      issue('broken_tool_name', 'required for split step_wise_tool_broken');
    if (!reference.replacementTool)
      issue('replacement_tool_json', 'required for split step_wise_tool_broken');
    else if (!toolNames.has(reference.replacementTool.name))
      issue(
        'replacement_tool_json',
        `replacement "${reference.replacementTool.name}" is not in tools_json`,
      );
  }
  if (split === 'holistic_efficiency') {
    input.tools.forEach((tool, index) => {
      if (tool.cost === undefined)
        issue(
          `tools_json[${index}].cost`,
          'every tool of holistic_efficiency needs a numeric cost',
        );
    });
  }
}

/** The line as JSON, or its one issue: invalid JSON or nesting too deep. */
function readJson(
  text: string,
  origin: LineOrigin,
  { validate, jsonDepth }: RecordReading,
): { json: unknown } | { issue: InputIssue } {
  try {
    // A line that passed validation in this process is not measured again.
    return { json: validate ? parseUntrustedJson(text, jsonDepth) : JSON.parse(text) };
  } catch (error) {
    const message =
      error instanceof JsonTooDeepError
        ? error.message
        : `invalid JSON: ${(error as Error).message}`;
    return { issue: { file: origin.file, line: origin.line, field: '(line)', message } };
  }
}

type Issue = (field: string, message: string) => void;

/** The record's split against its file's, its planning regime against its split, its horizon. */
function checkRecordFields(record: RawRecord, origin: LineOrigin, issue: Issue): void {
  if (origin.fileSplit && record.split !== origin.fileSplit)
    issue('split', `"${record.split}" does not match the file's split "${origin.fileSplit}"`);
  if (record.planning_regime && record.planning_regime !== SPLIT_REGIME[record.split]) {
    issue(
      'planning_regime',
      `"${record.planning_regime}" does not match split ${record.split} (expected "${SPLIT_REGIME[record.split]}")`,
    );
  }
  const horizon = record.prediction_horizon ?? null;
  if (horizon !== null && ![1, 2, 3].includes(horizon))
    issue('prediction_horizon', `must be 1, 2 or 3 (got ${horizon})`);
}

/** Tool names are unique in a case's tool list. */
function checkToolNames(input: CaseInput, issue: Issue): void {
  const seen = new Set<string>();
  input.tools.forEach((tool, index) => {
    if (seen.has(tool.name)) issue(`tools_json[${index}]`, `duplicate tool name "${tool.name}"`);
    seen.add(tool.name);
  });
}

/**
 * How a line is read: `validate: false` is for a line that already passed validation in this
 * process (a run's second pass); `jsonDepth` is the JSON cap (default `DEFAULT_LIMITS`').
 */
export interface RecordReading {
  validate: boolean;
  jsonDepth?: number;
}

/**
 * Parses and validates one non-blank line. `validate: false` builds the same case as a validated
 * line without the schema work.
 */
export function parseRecordLine(
  text: string,
  origin: LineOrigin,
  resolver: FileResolver,
  options: RecordReading = { validate: true },
): ParsedLine {
  const { validate } = options;
  const issues: InputIssue[] = [];
  const issue = (field: string, message: string) =>
    issues.push({ file: origin.file, line: origin.line, field, message });
  const read = readJson(text, origin, options);
  if ('issue' in read) return { ok: false, issues: [read.issue] };
  const { json } = read;
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    issue('(line)', 'expected a JSON object');
    return { ok: false, issues };
  }
  const parsed = validate ? checkRecord(json) : { success: true as const, data: json as RawRecord };
  if (!parsed.success) return { ok: false, issues: zodIssues(origin, '', parsed.error) };
  const record = parsed.data;
  checkRecordFields(record, origin, issue);
  const horizon = record.prediction_horizon ?? null;
  const decoded = decodeJsonFields(record, origin, issues, options);
  const files = resolveFiles(record, origin, resolver, issues, validate);
  const { input, reference } = casePartsOf(record, decoded, files, horizon, options.jsonDepth);
  if (validate) {
    checkToolNames(input, issue);
    if (issues.length === 0) checkSplitRequirements(record, input, reference, issue);
  }
  if (issues.length > 0) return { ok: false, issues };
  const facets = facetsOf(record, input, reference);
  return {
    ok: true,
    case: new DatasetCase(
      String(record.id),
      record.split,
      input,
      reference,
      facets,
      json as Record<string, unknown>,
      text,
      { file: origin.file, line: origin.line },
    ),
  };
}
