/**
 * The engine over real HTTP under injected faults: 16 % transport faults (429 with Retry-After,
 * 500, resets, truncated bodies), 3 % prose and 5 % fenced replies, for each vendor wire. Every case
 * ends with exactly one outcome, ≥ 90 % of predictions are ok, the API key reaches the server on
 * every request and appears in no artefact, log line or error message.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import {
  caseKey,
  cli,
  filesUnder,
  readJsonl,
  readManifest,
  sampleScript,
  SECRET_KEY,
  sentKey,
  tempDir,
  type CaseScript,
} from './helpers.js';

let server: FakeServer;
let script: CaseScript;
beforeAll(async () => {
  script = await sampleScript();
  server = await startFakeServer({
    respond: (request) => script.respond(request),
    faults: { rate: 0.16, kinds: [429, 500, 'reset', 'truncate'], seed: 11 },
  });
});
afterAll(() => server.close());

/** The four vendor wires, each with its key variable and the base URL pointing at the fake. */
const SPECS = [
  { model: 'openai-compatible:fake-qwen3-vl', wire: 'openai', keyEnv: 'APB_API_KEY' },
  { model: 'openai:gpt-4o', wire: 'openai', keyEnv: 'OPENAI_API_KEY' },
  { model: 'anthropic:claude-sonnet-4-5', wire: 'anthropic', keyEnv: 'ANTHROPIC_API_KEY' },
  { model: 'google:gemini-2.5-flash', wire: 'gemini', keyEnv: 'GOOGLE_GENERATIVE_AI_API_KEY' },
] as const;

describe('apb run under injected faults', () => {
  it('records exactly one outcome per case, ≥ 90 % ok, for every vendor wire; the key is sent and never written', async () => {
    const runs = SPECS.map((spec) => ({
      ...spec,
      out: path.join(tempDir(), 'run'),
      cacheDir: tempDir('apb-cache-'),
    }));
    const results = await Promise.all(
      runs.map((run) =>
        cli(
          [
            'run',
            '--model',
            run.model,
            '--base-url',
            server.baseUrl(run.wire),
            '--out',
            run.out,
            '--concurrency',
            '8',
            '--max-retries',
            '8',
          ],
          {
            [run.keyEnv]: SECRET_KEY,
            APB_CACHE_DIR: run.cacheDir,
          },
        ),
      ),
    );
    const expected = new Set(script.cases.map(caseKey));
    const summary: Record<string, unknown> = {};
    runs.forEach((run, index) => {
      const result = results[index]!;
      expect(result.code, `${run.model}: ${result.stderr}`).toBe(0);
      const predictions = readJsonl(path.join(run.out, 'predictions.jsonl'));
      const judgements = readJsonl(path.join(run.out, 'judgements.jsonl'));
      for (const lines of [predictions, judgements]) {
        const keys = lines.map(caseKey);
        expect(new Set(keys).size, run.model).toBe(keys.length);
        expect(new Set(keys), run.model).toEqual(expected);
      }
      const statuses = Object.fromEntries(
        ['ok', 'parse_error', 'error'].map((status) => [
          status,
          predictions.filter((line) => line.apb.status === status).length,
        ]),
      );
      expect(statuses.ok! / predictions.length, run.model).toBeGreaterThanOrEqual(0.9);
      // The reply style decides the outcome: faults were all absorbed by retries.
      for (const line of predictions)
        expect(line.apb.status, `${run.model} ${caseKey(line)}`).toBe(
          script.styleOf(caseKey(line)) === 'prose' ? 'parse_error' : 'ok',
        );
      const attempts = predictions.reduce((sum, line) => sum + line.apb.attempts, 0);
      summary[run.model] = {
        ...statuses,
        attempts,
        retried: predictions.filter((line) => line.apb.attempts > 1).length,
      };
      expect(readManifest(run.out)).toMatchObject({
        status: 'complete',
        counts: { predictions: statuses },
      });
      // The key: in no file of the run or the cache, and in no output line.
      for (const file of [...filesUnder(run.out), ...filesUnder(run.cacheDir)])
        expect(readFileSync(file).includes(SECRET_KEY), file).toBe(false);
      expect(result.stdout + result.stderr).not.toContain(SECRET_KEY);
    });
    expect(server.requests.every((request) => sentKey(request) === SECRET_KEY)).toBe(true);
    expect(server.count()).toBeGreaterThan(runs.length * expected.size);
    console.info('fault run outcomes', JSON.stringify(summary), 'requests', server.count());
  }, 180_000);
});
