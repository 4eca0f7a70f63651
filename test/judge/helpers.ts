/**
 * Shared pieces of the judge's HTTP tests: the sample's cases, judge replies, request lookups and a
 * CLI runner with its own cache.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Case } from '../../src/dataset/case.js';
import { readAllCases, SAMPLE_DATASET_DIR } from '../../src/dataset/read-cases.js';
import { BEHAVIOR_OUTPUT, REFUSAL_OUTPUT } from '../../src/judge/prompts/common.js';
import type { RecordedRequest } from '../fake-server/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';

export const tempDir = (prefix = 'apb-judge-') => mkdtempSync(path.join(tmpdir(), prefix));

/**
 * Runs the CLI with a private response cache, so no test reads another's cached replies or writes
 * into the repository.
 */
export function apb(args: string[], cacheDir: string): Promise<CliResult> {
  return runCli(args, {
    env: { APB_CACHE_DIR: cacheDir, APB_API_KEY: '', APB_JUDGE_BASE_URL: '', APB_BASE_URL: '' },
  });
}

/** Every line of a JSONL file, parsed. */
export function readLines(file: string): Record<string, any>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** The sample's cases, read once. */
let sampleCases: Case[] | null = null;
export async function sample(): Promise<Case[]> {
  sampleCases ??= (await readAllCases(SAMPLE_DATASET_DIR)).cases;
  return sampleCases;
}

/** A graded verdict of correctness, as the rubric asks for it. */
export const GOOD = {
  reasoning: 'Every step is sound.',
  errors: { E1: false, E2: false, E3: false, E4: false, E5: false, E6: false },
  is_correct: true,
  grade: 1,
};

/** A graded verdict of incorrectness with E4 set. */
export const BAD_E4 = (grade = 0.6) => ({
  reasoning: 'A logical defect.',
  errors: { E1: false, E2: false, E3: false, E4: true, E5: false, E6: false },
  is_correct: false,
  grade,
});

/** The user message of a judge request (the material), or '' for anything else. */
export function material(request: RecordedRequest): string {
  return request.parsed?.messages.find((message) => message.role === 'user')?.text ?? '';
}

/** The system message of a request. */
export function system(request: RecordedRequest): string {
  return request.parsed?.messages.find((message) => message.role === 'system')?.text ?? '';
}

/** True for a re-ask (the judge's earlier reply and a corrective message follow the material). */
export const isReask = (request: RecordedRequest) => (request.parsed?.messages.length ?? 0) > 2;

/** A readable "correct" reply in the shape the request's rubric asks for. */
export function correctReplyFor(request: RecordedRequest): string {
  const rubric = system(request);
  if (rubric.includes(BEHAVIOR_OUTPUT))
    return JSON.stringify({ reasoning: 'Uses the replacement.', behavior: 'replace' });
  if (rubric.includes(REFUSAL_OUTPUT))
    return JSON.stringify({ reasoning: 'Refuses for the right reason.', refused: true });
  return JSON.stringify(GOOD);
}

/** The one case of `cases` whose query the judge material quotes; throws when none or several match. */
export function caseOf(request: RecordedRequest, cases: readonly Case[]): Case {
  const text = material(request);
  const matches = cases.filter((caseItem) => text.includes(caseItem.input.query));
  if (matches.length !== 1)
    throw new Error(`request ${request.index} matches ${matches.length} case(s)`);
  return matches[0]!;
}
