/** The code stack's edges: bad lines, timeouts, HTTP statuses, the cache's identity, the budget. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError, SystematicFailureError, UsageError } from '../../errors.js';
import { Budget, BudgetExceededError } from '../../pipeline/budget.js';
import { ResponseCache } from '../cache.js';
import type { ProviderRequest } from '../provider.js';
import { buildProviderStack } from '../registry.js';
import { DEAD_AFTER } from './subprocess.js';

const dir = mkdtempSync(path.join(tmpdir(), 'apb-code-unit-'));
const request = (id: string, text = 'plan this'): ProviderRequest => ({
  messages: [{ role: 'user', parts: [{ type: 'text', text }] }],
  promptVersion: 'test@1',
  json: true,
  sampling: {},
  repeat: 0,
  role: 'planner',
  subject: { id, split: 'holistic_planning' },
});
const quick = { concurrency: 2, timeoutMs: 5_000, maxRetries: 2, retry: { baseDelayMs: 1 } };

function script(name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, body);
  return file;
}

/** A node process answering per request id: `bad` writes a non-JSON line, `slow` never answers, `bye` exits. */
const lineScript = script(
  'lines.mjs',
  `import { createInterface } from 'node:readline';
const pid = process.pid;
for await (const line of createInterface({ input: process.stdin })) {
  const { id } = JSON.parse(line);
  if (id === 'bad') process.stdout.write('this is not json\\n');
  else if (id === 'bye') process.exit(4);
  else if (id === 'slow') continue;
  else process.stdout.write(JSON.stringify({ id, text: 'pid ' + pid, usage: { input_tokens: 3, output_tokens: 2 }, cost_usd: 0.01 }) + '\\n');
}
`,
);

describe('cmd: planners', () => {
  it('turns a bad line or an exit into that request error and restarts the process', async () => {
    const stack = buildProviderStack(`cmd:${process.execPath} ${lineScript}`, quick);
    const first = await stack.generate(request('a'));
    expect(first).toMatchObject({ usage: { inputTokens: 3, outputTokens: 2 }, costUsd: 0.01 });
    await expect(stack.generate(request('bad'))).rejects.toThrow(/not JSON: this is not json/);
    const second = await stack.generate(request('b'));
    expect(second.text).not.toBe(first.text); // a fresh process (another pid)
    await expect(stack.generate(request('bye'))).rejects.toThrow(/exited \(code 4\)/);
    expect((await stack.generate(request('c'))).text).toMatch(/^pid \d+$/);
  });

  it('times a request out, kills the process and answers the next one', async () => {
    const stack = buildProviderStack(`cmd:${process.execPath} ${lineScript}`, {
      ...quick,
      timeoutMs: 2_000,
      maxRetries: 0,
    });
    await expect(stack.generate(request('slow'))).rejects.toMatchObject({ kind: 'timeout' });
    expect((await stack.generate(request('d'))).text).toMatch(/^pid/);
  });

  it('refuses an answer for another case', async () => {
    const other = script(
      'other.mjs',
      `process.stdin.on('data', () => process.stdout.write('{"id":"zzz","text":"x"}\\n'));`,
    );
    const stack = buildProviderStack(`cmd:${process.execPath} ${other}`, quick);
    await expect(stack.generate(request('a'))).rejects.toThrow(
      /answer field "id" is "zzz", expected "a"/,
    );
  });

  it('stops the run when the process dies again and again', async () => {
    const stack = buildProviderStack('cmd:exit 2', { ...quick, maxRetries: 0 });
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c'].map((id) => stack.generate(request(id))),
    );
    expect(outcomes.at(-1)).toMatchObject({ reason: expect.any(SystematicFailureError) });
  });

  it('counts the calls that succeeded before the process kept dying (not "nothing has succeeded")', async () => {
    const stack = buildProviderStack(`cmd:${process.execPath} ${lineScript}`, {
      ...quick,
      maxRetries: 0,
    });
    await stack.generate(request('a'));
    let error: unknown = null;
    for (let death = 0; death < DEAD_AFTER && !(error instanceof SystematicFailureError); death++)
      error = await stack.generate(request('bye')).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SystematicFailureError);
    const { message } = error as SystematicFailureError;
    expect(message).toContain(`${DEAD_AFTER} calls in a row failed after 1 call succeeded`);
    expect(message).not.toContain('nothing has succeeded');
    const reason = new ProviderError({
      provider: 'x',
      kind: 'client',
      retryable: false,
      message: 'no',
    });
    expect(new SystematicFailureError('x', reason, 3).message).toContain(
      'the first 3 calls all failed the same way and nothing has succeeded, so the run stopped',
    );
  });

  it('refuses an empty command before any call', () => {
    expect(() => buildProviderStack('cmd:', quick)).toThrow(UsageError);
  });
});

describe('http: planners', () => {
  let server: Server | null = null;
  afterEach(() => void server?.close());
  async function serve(statuses: number[]): Promise<{ url: string; bodies: unknown[] }> {
    const bodies: unknown[] = [];
    server = createServer((incoming, response) => {
      let body = '';
      incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
      incoming.on('end', () => {
        const parsed = JSON.parse(body) as { id: string };
        bodies.push(parsed);
        const status = statuses.shift() ?? 200;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(status === 200 ? JSON.stringify({ id: parsed.id, text: 'ok' }) : 'nope');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, bodies };
  }

  it('retries a 5xx, and sends the contract request', async () => {
    const { url, bodies } = await serve([503]);
    const result = await buildProviderStack(`http:${url}`, quick).generate(request('a'));
    expect(result).toMatchObject({ text: 'ok', attempts: 2 });
    expect(bodies[1]).toEqual({
      id: 'a',
      split: 'holistic_planning',
      repeat: 0,
      messages: [{ role: 'user', content: 'plan this' }],
      tools: [],
    });
  });

  it('makes a 400 the case error and a 401 an authentication failure', async () => {
    const { url } = await serve([400, 401]);
    const stack = buildProviderStack(`http:${url}`, { ...quick, maxRetries: 0 });
    await expect(stack.generate(request('a'))).rejects.toMatchObject({ kind: 'client' });
    await expect(stack.generate(request('b'))).rejects.toMatchObject({ kind: 'auth' });
  });

  it('refuses a URL that is not one before any call', () => {
    expect(() => buildProviderStack('http:localhost:9000', quick)).toThrow(UsageError);
  });
});

describe('module: planners', () => {
  it('caches per case and per module version', async () => {
    const file = script(
      'counting.mjs',
      `let n = 0; export default { version: '1', plan: (r) => ({ text: r.id + ' ' + ++n }) };`,
    );
    const cache = ResponseCache.open(path.join(dir, 'cache.sqlite'));
    const stack = () =>
      buildProviderStack(`module:${file}`, { ...quick, cache: { cache, enabled: true } });
    const first = stack();
    expect((await first.generate(request('a'))).text).toBe('a 1');
    expect((await first.generate(request('b'))).text).toBe('b 2'); // same messages, another case
    expect(await stack().generate(request('a'))).toMatchObject({ text: 'a 1', cached: true });
    writeFileSync(file, `export default { version: '2', plan: (r) => ({ text: r.id + ' v2' }) };`);
    expect(await stack().generate(request('a'))).toMatchObject({ text: 'a v2', cached: false });
    cache.close();
  });

  it('stops at once when the file exports no planner', async () => {
    const file = script('empty.mjs', 'export const nothing = 1;');
    await expect(
      buildProviderStack(`module:${file}`, quick).generate(request('a')),
    ).rejects.toThrow(/must export default \{ plan\(request, signal\) \}/);
  });

  it('makes a throw in plan() that case error', async () => {
    const file = script(
      'thrower.mjs',
      `export default { plan: (r) => { if (r.id === 'x') throw new Error('no'); return { text: 'fine' }; } };`,
    );
    const stack = buildProviderStack(`module:${file}`, quick);
    await expect(stack.generate(request('x'))).rejects.toBeInstanceOf(ProviderError);
    expect((await stack.generate(request('y'))).text).toBe('fine');
  });
});

describe('the budget of planners as code', () => {
  it('counts the cost the planner reports and refuses calls once it is spent', async () => {
    const budget = new Budget(0.025);
    const spec = `cmd:${process.execPath} ${lineScript}`;
    const stack = buildProviderStack(spec, { ...quick, gate: budget.gateFor(spec) });
    for (const id of ['a', 'b', 'c']) await stack.generate(request(id));
    await expect(stack.generate(request('d'))).rejects.toBeInstanceOf(BudgetExceededError);
    expect(budget.summary().spent_usd).toBeCloseTo(0.03);
  });
});
