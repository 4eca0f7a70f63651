/**
 * Planners as code (`module:`, `cmd:`, `http:`), end to end through the engine and a real run:
 * the example planner gives identical predictions on the sample in all three forms, no form is
 * sent a reference field (canaries), a crashing subprocess costs only its cases, and a process
 * that never answers stops the run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPLITS } from '../../src/dataset/case.js';
import { SystematicFailureError } from '../../src/errors.js';
import { rulesJudge } from '../../src/judge/rules-judge.js';
import { codePlanner } from '../../src/pipeline/planner.js';
import { runEvaluation } from '../../src/pipeline/run.js';
import { buildProviderStack } from '../../src/providers/registry.js';
import { DEFAULT_PROMPT_OPTIONS } from '../../src/settings/prompt.js';
import { canaries, record, writeDataset } from '../helpers/canary-dataset.js';
import { REPO_ROOT } from '../helpers/cli.js';

const SAMPLE = path.join(REPO_ROOT, 'sample');
const EXAMPLES = path.join(REPO_ROOT, 'examples');
const hasPython = spawnSync('python3', ['--version']).status === 0;

interface Line {
  id: string;
  model_response: string;
  apb: { status: string; parsed?: unknown; usage?: unknown; error?: unknown };
}

async function runWith(spec: string, datasetDir: string): Promise<Map<string, Line>> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'apb-code-'));
  const provider = buildProviderStack(spec, { concurrency: 4, timeoutMs: 20_000, maxRetries: 0 });
  await runEvaluation(
    {
      outDir,
      selection: { datasetDir, splits: [...SPLITS], repeats: 1 },
      concurrency: 4,
      promptOptions: DEFAULT_PROMPT_OPTIONS,
      skipInvalid: false,
      retryErrors: false,
      baseUrl: null,
      judgeBaseUrl: null,
      judgeBlind: false,
      judgeVersion: rulesJudge.version,
      judgeIds: ['rules'],
    },
    { planner: codePlanner(provider, {}, true), judge: rulesJudge },
  );
  const lines = readFileSync(path.join(outDir, 'predictions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((text) => JSON.parse(text) as Line & { tested_model: string });
  for (const line of lines) expect(line.tested_model).toBe(spec);
  return new Map(lines.map((line) => [line.id, line]));
}

/** What a prediction says, without timing: the comparison of two forms. */
const said = (line: Line) => ({
  response: line.model_response,
  status: line.apb.status,
  parsed: line.apb.parsed,
  usage: line.apb.usage,
});

/** Starts examples/http-server.ts on a free port (through tsx, as its header says) and returns its URL. */
async function startExampleServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(EXAMPLES, 'http-server.ts'), '--port', '0'],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.on('exit', (code) => reject(new Error(`example server exited (${code})`)));
  });
  return { child, url };
}

describe('the example planner as a module, a subprocess and an HTTP server', () => {
  let server: { child: ChildProcess; url: string };
  beforeAll(async () => {
    server = await startExampleServer();
  }, 30_000);
  afterAll(() => void server?.child.kill());

  it.skipIf(!hasPython)(
    'gives identical predictions on the sample in each form',
    async () => {
      const viaModule = await runWith(`module:${path.join(EXAMPLES, 'planner.ts')}`, SAMPLE);
      const viaCommand = await runWith(`cmd:python3 ${path.join(EXAMPLES, 'planner.py')}`, SAMPLE);
      const viaHttp = await runWith(`http:${server.url}`, SAMPLE);
      expect(viaModule.size).toBe(69);
      for (const [id, line] of viaModule) {
        expect(said(viaCommand.get(id)!), id).toEqual(said(line));
        expect(said(viaHttp.get(id)!), id).toEqual(said(line));
      }
      // The example is a real planner: it answers in the prompt's format, and not only with empty plans.
      const statuses = [...viaModule.values()].map((line) => line.apb.status);
      expect(statuses.filter((status) => status === 'ok').length).toBeGreaterThan(40);
      expect([...viaModule.values()].some((line) => line.model_response.includes('"name":"'))).toBe(
        true,
      );
    },
    120_000,
  );

  it.skipIf(!hasPython)(
    'a crashing subprocess costs only its cases',
    async () => {
      const crashOn = ['sample-hp-02', 'sample-sp-03'];
      const script = path.join(EXAMPLES, 'planner.py');
      const crashing = await runWith(
        `cmd:PLANNER_CRASH_ON=${crashOn.join(',')} python3 ${script}`,
        SAMPLE,
      );
      const healthy = await runWith(`module:${path.join(EXAMPLES, 'planner.ts')}`, SAMPLE);
      for (const [id, line] of healthy) {
        const other = crashing.get(id)!;
        if (crashOn.includes(id)) {
          expect(other.apb.status, id).toBe('error');
          expect(JSON.stringify(other.apb.error)).toMatch(/exited \(code 3\) before answering/);
        } else expect(said(other), id).toEqual(said(line));
      }
    },
    60_000,
  );
});

describe('no form of planner as code is sent a reference field', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'apb-code-canary-'));
  const log = path.join(dir, 'received.jsonl');
  const answer = `{ id: request.id, text: '{"plan": "", "tool_chain": []}' }`;
  writeFileSync(
    path.join(dir, 'recorder.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport default { plan(request) { appendFileSync(${JSON.stringify(log)}, JSON.stringify(request) + '\\n'); return ${answer}; } };\n`,
  );
  writeFileSync(
    path.join(dir, 'recorder-cmd.mjs'),
    `import { appendFileSync } from 'node:fs';\nimport { createInterface } from 'node:readline';\nfor await (const line of createInterface({ input: process.stdin })) { appendFileSync(${JSON.stringify(log)}, line + '\\n'); const request = JSON.parse(line); process.stdout.write(JSON.stringify(${answer}) + '\\n'); }\n`,
  );
  let http: Server;
  let url = '';
  beforeAll(async () => {
    http = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        writeFileSync(log, `${body}\n`, { flag: 'a' });
        const parsed = JSON.parse(body) as { id: string };
        response.end(JSON.stringify({ id: parsed.id, text: '{"plan": "", "tool_chain": []}' }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const address = http.address() as { port: number };
    url = `http://127.0.0.1:${address.port}/plan`;
  });
  afterAll(() => http?.close());

  it('holds for a module, a subprocess and an HTTP server on every split', async () => {
    const data = writeDataset(SPLITS.map((split, index) => record(split, index)));
    const specs = [
      `module:${path.join(dir, 'recorder.mjs')}`,
      `cmd:${process.execPath} ${path.join(dir, 'recorder-cmd.mjs')}`,
      `http:${url}`,
    ];
    for (const spec of specs) await runWith(spec, data);
    const received = readFileSync(log, 'utf8').trim().split('\n');
    expect(received).toHaveLength(SPLITS.length * specs.length);
    // The case id is the one field sent on purpose (CONTRACT.md): it is read out, and nothing else may leak.
    const rest = received.map((text) => {
      const { id, ...request } = JSON.parse(text) as { id: string; split: string; messages: [] };
      expect(id).toMatch(/^CANARY-id-/);
      expect(SPLITS).toContain(request.split);
      expect(request.messages.length).toBeGreaterThan(0);
      return JSON.stringify(request);
    });
    expect(canaries.length).toBeGreaterThan(5);
    const all = rest.join('\n');
    expect(canaries.filter((value) => all.includes(value))).toEqual([]);
    expect(all).toContain('search_orders'); // the tools the planner must see do arrive
  }, 60_000);
});

describe('a planner process that never answers', () => {
  it('stops the run instead of failing every case', async () => {
    await expect(runWith('cmd:exit 1', SAMPLE)).rejects.toBeInstanceOf(SystematicFailureError);
  }, 30_000);
});
