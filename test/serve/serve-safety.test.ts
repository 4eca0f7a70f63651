/**
 * Serve's safety and its plan roles: a foreign Host (DNS rebinding) gets 421 and a foreign Origin 403 with
 * nothing forwarded, `--api-key` is required when set, a user simulator's requests (X-APB-Role or MODEL@ROLE)
 * are forwarded without a plan, the plan log refuses a planted symbolic link, and a disk too full to record a
 * plan refuses the new conversation (507) before the plan is paid for.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { draftPlan } from '../../src/execution/plans.js';
import { buildProviderStack } from '../../src/providers/registry.js';
import { openPlanLog } from '../../src/serve/plan-log.js';
import type { RunningServe, ServeOptions } from '../../src/serve/server.js';
import {
  replies,
  startFakeServer,
  type FakeServer,
  type RecordedRequest,
} from '../fake-server/index.js';
import { serveOver } from './harness.js';

let fake: FakeServer;
let dir: string;
const chatBody = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

/** A raw POST with chosen headers (fetch would not let a test set Host). */
function post(
  serve: RunningServe,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const url = new URL(`${serve.baseUrl}/chat/completions`);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(chatBody);
  });
}

const PLANNER_MARK = 'You are the planner of a tool-using AI agent';
const isPlanning = (request: RecordedRequest) =>
  request.parsed?.messages[0]?.text.includes(PLANNER_MARK) ?? false;

/** The real drafting over the fake, recording what each plan was asked for. */
function countingPlanner() {
  const asked: string[] = [];
  const planner = buildProviderStack('openai:gpt-4o', {
    baseUrl: fake.baseUrl('openai'),
    env: { OPENAI_API_KEY: 'sk-planner' },
    maxRetries: 0,
  });
  const makePlan: ServeOptions['makePlan'] = async (context, signal) => {
    asked.push(context.request);
    return draftPlan(planner, context, { sampling: {}, repeat: 0, signal });
  };
  return { asked, makePlan };
}

beforeAll(async () => {
  fake = await startFakeServer();
  dir = mkdtempSync(path.join(tmpdir(), 'apb-serve-safety-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
  fake.configure({
    respond: (request) =>
      isPlanning(request)
        ? replies.json({ plan: '1. Say hi.', tool_chain: [] })
        : replies.text('hello'),
  });
});

describe('apb serve safety', () => {
  it('refuses a foreign Host with 421 and a foreign Origin with 403, forwarding nothing', async () => {
    const serve = await serveOver(fake);
    const port = new URL(serve.baseUrl).port;
    expect((await post(serve, { host: 'evil.example' })).status).toBe(421);
    expect((await post(serve, { host: `evil.example:${port}` })).status).toBe(421);
    const crossSite = await post(serve, {
      origin: 'https://evil.example',
      'content-type': 'text/plain',
    });
    expect(crossSite.status).toBe(403);
    expect(fake.count()).toBe(0);
    expect((await post(serve, { host: `localhost:${port}` })).status).toBe(200);
    expect((await post(serve, { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect(fake.count()).toBe(2);
    await serve.close();
  });

  it('--api-key: a client without the key gets the AuthenticationError; with it, the reply', async () => {
    const serve = await serveOver(fake, 'openai:gpt-4o', { apiKey: 'serve-secret' });
    const ask = (apiKey: string) =>
      new OpenAI({ baseURL: serve.baseUrl, apiKey, maxRetries: 0 }).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
      });
    await expect(ask('wrong')).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    expect(fake.count()).toBe(0);
    expect((await ask('serve-secret')).choices[0]!.message.content).toBe('hello');
    await serve.close();
  });
});

describe('apb serve plan roles', () => {
  it('plans agent conversations only; a user simulator (header or MODEL@user) is forwarded as is', async () => {
    const { asked, makePlan } = countingPlanner();
    const serve = await serveOver(fake, 'openai:gpt-4o', { mode: 'plan-first', makePlan });
    const client = new OpenAI({ baseURL: serve.baseUrl, apiKey: 'k' });
    const agent = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'cancel #W1' }] })
      .withResponse();
    expect(agent.response.headers.get('x-apb-plan')).toBe('injected');
    const byHeader = await client.chat.completions
      .create(
        { model: 'gpt-4o', messages: [{ role: 'user', content: 'you are the customer' }] },
        { headers: { 'x-apb-role': 'user' } },
      )
      .withResponse();
    expect(byHeader.response.headers.get('x-apb-plan')).toBe('forwarded');
    const byName = await client.chat.completions
      .create({ model: 'gpt-4o@user', messages: [{ role: 'user', content: 'simulate me' }] })
      .withResponse();
    expect(byName.response.headers.get('x-apb-role')).toBe('user');
    expect(byName.data.model).toBe('gpt-4o');
    expect(asked).toEqual(['cancel #W1']);
    const forwarded = fake.requests.filter((request) => !isPlanning(request));
    expect(forwarded.map((request) => request.parsed!.messages[0]!.role)).toEqual([
      'system',
      'user',
      'user',
    ]);
    await serve.close();
  });
});

describe('apb serve plan log', () => {
  it('refuses a planted symbolic link instead of appending through it', () => {
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched\n');
    const run = path.join(dir, 'run-link');
    rmSync(run, { recursive: true, force: true });
    openPlanLog(run).close();
    rmSync(path.join(run, 'serve-plans.jsonl'));
    symlinkSync(victim, path.join(run, 'serve-plans.jsonl'));
    expect(() => openPlanLog(run)).toThrow(/is a symbolic link; apb serve will not follow it/);
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
  });

  it('a disk too full to record a plan refuses the new conversation with 507, before planning', async () => {
    const { asked, makePlan } = countingPlanner();
    // More free space required than any disk has: the check answers as a full disk would.
    const log = openPlanLog(path.join(dir, 'run-full'), Number.MAX_SAFE_INTEGER);
    const serve = await serveOver(fake, 'openai:gpt-4o', {
      mode: 'plan-first',
      makePlan,
      beforePlan: () => log.checkSpace(),
    });
    const refused = await post(serve, {});
    expect(refused.status).toBe(507);
    expect(JSON.parse(refused.body).error.code).toBe('insufficient_storage');
    expect(asked).toEqual([]);
    expect(fake.count()).toBe(0);
    log.close();
    await serve.close();
  });
});
