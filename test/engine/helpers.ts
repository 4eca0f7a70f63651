/**
 * Engine test helpers: a fake-server responder that answers every sample case deterministically
 * (the reference answer, with a fixed few cases in prose or in a code fence), the real CLI as a
 * killable child process, and run-directory readers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BASELINES } from '../../src/baselines/index.js';
import type { Case } from '../../src/dataset/case.js';
import { readAllCases, SAMPLE_DATASET_DIR } from '../../src/dataset/read-cases.js';
import { plannerPromptOf } from '../../src/pipeline/evaluate-case.js';
import { DEFAULT_PROMPT_OPTIONS } from '../../src/settings/prompt.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  startFakeServer,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
} from '../fake-server/index.js';
import { REPO_ROOT, type CliResult } from '../helpers/cli.js';

export const tempDir = (prefix = 'apb-engine-') => mkdtempSync(path.join(tmpdir(), prefix));

/** A key shaped like a real one, so pattern redaction and exact-value redaction both apply. */
export const SECRET_KEY = 'sk-engine-test-4f9c2a7e1b3d5SECRET';

/** Whitespace-free text, so a prompt matches however a wire splits or joins its messages. */
const squash = (text: string) => text.replace(/\s+/g, '');

/** How a case is answered: the reference answer as plain JSON, inside a fenced block, or as prose. */
export type ReplyStyle = 'plain' | 'fenced' | 'prose';

/** The sample's cases and a responder answering each one by recognising its planner prompt. */
export interface CaseScript {
  cases: Case[];
  /** `split/id` of the case a request is for (undefined for anything else, e.g. a judge call). */
  caseOf(request: RecordedRequest): string | undefined;
  styleOf(key: string): ReplyStyle;
  respond(request: RecordedRequest): FakeReply;
  /** Requests per case among `requests`. */
  countByCase(requests: readonly RecordedRequest[]): Map<string, number>;
}

export const caseKey = (item: { split: string; id: string }) => `${item.split}/${item.id}`;

/** Builds the script over the built-in sample; about 3 % of cases answer in prose and 5 % in a fence. */
export async function sampleScript(): Promise<CaseScript> {
  const { cases } = await readAllCases(SAMPLE_DATASET_DIR);
  const byPrompt = new Map<string, Case>();
  const promptTexts: Array<[string, Case]> = [];
  const style = new Map<string, ReplyStyle>();
  cases.forEach((item, index) => {
    const prompt = plannerPromptOf(item, DEFAULT_PROMPT_OPTIONS);
    const text = squash(
      prompt.messages
        .map((message) =>
          message.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''),
        )
        .join(''),
    );
    byPrompt.set(text, item);
    const user = prompt.messages.filter((message) => message.role === 'user').at(-1);
    promptTexts.push([
      squash(user?.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? text),
      item,
    ]);
    style.set(caseKey(item), index % 33 === 5 ? 'prose' : index % 20 === 7 ? 'fenced' : 'plain');
  });
  // A planner request is the prompt itself; a judge request quotes it, the user message whole.
  const caseOf = (request: RecordedRequest) => {
    if (!request.parsed) return undefined;
    const text = squash(request.parsed.text);
    const found = byPrompt.get(text) ?? promptTexts.find(([user]) => text.includes(user))?.[1];
    return found ? caseKey(found) : undefined;
  };
  const answers = new Map(cases.map((item) => [caseKey(item), BASELINES.oracle.answer(item)]));
  return {
    cases,
    caseOf,
    styleOf: (key) => style.get(key) ?? 'plain',
    respond(request) {
      if (request.parsed?.model === JUDGE_MODEL) return verdictReply(request);
      const key = caseOf(request);
      if (!key) return { text: 'unrecognised request' };
      const answer = answers.get(key)!;
      const kind = style.get(key);
      if (kind === 'prose')
        return {
          text: 'I would first look at the tools, then call them one after another until the task is done.',
        };
      if (kind === 'fenced') return { text: `Here is my plan:\n\`\`\`json\n${answer}\n\`\`\`` };
      return { text: answer };
    },
    countByCase(requests) {
      const counts = new Map<string, number>();
      for (const request of requests) {
        const key = caseOf(request);
        if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    },
  };
}

/** The model name that makes the scripted server answer as a judge. */
export const JUDGE_MODEL = 'fake-judge';

/** A verdict in the shape the judge prompt asks for (graded, tool-broken behaviour, or refusal). */
function verdictReply(request: RecordedRequest): FakeReply {
  const text = request.parsed?.text ?? '';
  if (text.includes('"behavior": "replace"}'))
    return {
      text: JSON.stringify({ reasoning: 'switched to the replacement', behavior: 'replace' }),
    };
  if (text.includes('"refused": true}'))
    return { text: JSON.stringify({ reasoning: 'refused for the right reason', refused: true }) };
  const errors = { E1: false, E2: false, E3: false, E4: false, E5: false, E6: false };
  return {
    text: JSON.stringify({
      reasoning: 'matches the reference',
      errors,
      is_correct: true,
      grade: 1,
    }),
  };
}

/** A running CLI child: kill it, or await its result. */
export interface CliChild {
  child: ChildProcess;
  result: Promise<CliResult>;
}

/** Starts the real CLI (`bin/apb.js` over dist/) without waiting for it; never blocks this process's event loop. */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 120_000,
): CliChild {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'apb.js'), ...args], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NO_COLOR: '1',
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      GOOGLE_GENERATIVE_AI_API_KEY: '',
      GEMINI_API_KEY: '',
      APB_API_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, result };
}

/** Runs the CLI to completion. */
export const cli = (args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs?: number) =>
  startCli(args, env, timeoutMs).result;

/** The JSON objects of a JSONL file; a torn or unreadable line is skipped. */
export function readJsonl(file: string): Array<Record<string, any>> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, any>];
      } catch {
        return [];
      }
    });
}

export const readManifest = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, any>;

/** Complete lines of a file (a line without its newline yet does not count). */
export function completeLines(file: string): number {
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8').split('\n').length - 1;
}

/** Resolves once `file` has at least `count` complete lines. */
export async function waitForLines(file: string, count: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (completeLines(file) < count) {
    if (Date.now() > deadline)
      throw new Error(`${file} did not reach ${count} lines in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** The key a request carried, in whichever header its wire uses. */
export function sentKey(request: RecordedRequest): string | undefined {
  const { authorization } = request.headers;
  if (typeof authorization === 'string' && authorization.startsWith('Bearer '))
    return authorization.slice('Bearer '.length);
  const header = request.headers['x-api-key'] ?? request.headers['x-goog-api-key'];
  return typeof header === 'string' ? header : undefined;
}

/**
 * Starts, for the calling test file, one fake server answering with `load()`'s script; it is reset
 * before each test and closed after the file. Read both through the getters.
 */
export function useScriptServer<T extends { respond(request: RecordedRequest): FakeReply }>(
  load: () => Promise<T>,
): { readonly server: FakeServer; readonly script: T } {
  let server: FakeServer | null = null;
  let script: T | null = null;
  beforeAll(async () => {
    const loaded = await load();
    script = loaded;
    server = await startFakeServer({ respond: (request) => loaded.respond(request) });
  });
  afterAll(() => server?.close());
  beforeEach(() => server?.reset());
  return {
    get server() {
      return server!;
    },
    get script() {
      return script!;
    },
  };
}

/** A fake server answering every case of the sample by its script (`sampleScript`). */
export function useScriptedServer(): { readonly server: FakeServer; readonly script: CaseScript } {
  return useScriptServer(sampleScript);
}
