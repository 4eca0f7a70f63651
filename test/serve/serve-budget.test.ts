/**
 * `apb serve --max-cost` through the real CLI, driven by the AI SDK's OpenAI-compatible client over real HTTP to the
 * loopback fake: conversations are planned and forwarded until the budget would be passed, then every request is
 * refused with OpenAI's 429 `insufficient_quota` and nothing more reaches the model; `/apb/stats` and the closing
 * line count usage and cost by role (agent, planner, critic), and what was spent never passes the budget.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, jsonSchema, stepCountIs, tool } from 'ai';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  replies,
  startFakeServer,
  type FakeServer,
  type RecordedRequest,
} from '../fake-server/index.js';
import { REPO_ROOT } from '../helpers/cli.js';

const PLANNER_MARK = 'You are the planner of a tool-using AI agent';
const PLAN = {
  plan: '1. Look the order up.',
  tool_chain: [
    {
      name: 'get_order_details',
      parameter_description: { order_id: '#W1' },
      reason: 'see its status',
    },
  ],
};

function respond(request: RecordedRequest) {
  const parsed = request.parsed!;
  if (parsed.tools.length === 0) {
    if (!parsed.messages[0]?.text.includes(PLANNER_MARK))
      return replies.text('The plan never confirms with the user.');
    return replies.json(PLAN);
  }
  return parsed.messages.at(-1)?.role === 'tool'
    ? replies.text('Your order is pending.')
    : replies.toolCalls({ name: 'get_order_details', arguments: { order_id: '#W1' } });
}

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer({ respond });
});
afterAll(() => fake.close());

/** Starts `apb serve` and resolves with its base URL (the first line of its stdout). */
function serve(args: string[]): Promise<{
  child: ChildProcess;
  baseUrl: string;
  stderr: () => string;
  exited: Promise<number | null>;
}> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'apb.js'), 'serve', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: 'sk-test-serve' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('\n'))
        resolve({ child, baseUrl: stdout.split('\n')[0]!, stderr: () => stderr, exited });
    });
    exited.then((code) => reject(new Error(`apb serve exited (${code}): ${stderr}`)));
  });
}

const tools = {
  get_order_details: tool({
    description: 'Get the status of an order.',
    inputSchema: jsonSchema<{ order_id: string }>({
      type: 'object',
      properties: { order_id: { type: 'string' } },
      required: ['order_id'],
    }),
    execute: async ({ order_id }) => ({ order_id, status: 'pending' }),
  }),
};

describe('apb serve --max-cost', () => {
  it('refuses with 429 insufficient_quota once the budget would be passed, sends nothing more, and counts cost by role', async () => {
    const server = await serve([
      '--mode',
      'refine',
      '--model',
      'openai:gpt-4o',
      '--base-url',
      fake.baseUrl('openai'),
      '--no-cache',
      '--max-cost',
      '0.05',
    ]);
    const model = createOpenAICompatible({
      name: 'client',
      baseURL: server.baseUrl,
      apiKey: 'client-key',
    }).chatModel('gpt-4o');
    let answered = 0;
    let refusal: APICallError | null = null;
    // Each conversation: a draft, a critique and a revision, then two forwarded requests (a tool call, the answer).
    for (let index = 0; index < 30 && !refusal; index += 1) {
      try {
        const result = await generateText({
          model,
          system: 'You are a support agent.',
          prompt: `Where is my order #W1? (conversation ${index})`,
          tools,
          stopWhen: stepCountIs(3),
          maxRetries: 0,
        });
        expect(result.text).toBe('Your order is pending.');
        answered += 1;
      } catch (error) {
        if (!APICallError.isInstance(error)) throw error;
        refusal = error;
      }
    }
    expect(answered).toBeGreaterThan(0);
    expect(refusal?.statusCode).toBe(429);
    expect(refusal?.responseBody).toContain('insufficient_quota');
    const sent = fake.count();
    // Past the budget nothing reaches the model, a new conversation or a known one.
    for (const prompt of ['Where is my order #W1? (conversation 0)', 'A new question']) {
      await expect(
        generateText({ model, system: 'You are a support agent.', prompt, tools, maxRetries: 0 }),
      ).rejects.toThrow(/--max-cost 0\.05 USD reached/);
    }
    expect(fake.count()).toBe(sent);

    const stats = (await (
      await fetch(`${server.baseUrl.replace(/\/v1$/, '')}/apb/stats`)
    ).json()) as {
      usage: Record<string, { calls: number; cost_usd: number }>;
      budget: { max_cost_usd: number; spent_usd: number; stopped: boolean };
      refused_budget: number;
    };
    expect(Object.keys(stats.usage).sort()).toEqual(['agent', 'critic', 'planner']);
    expect(stats.usage.agent!.calls).toBe(2 * answered);
    expect(stats.usage.critic!.calls).toBeGreaterThanOrEqual(answered);
    const spentByRole = Object.values(stats.usage).reduce((sum, role) => sum + role.cost_usd, 0);
    expect(stats.budget).toMatchObject({ max_cost_usd: 0.05, stopped: true });
    expect(stats.budget.spent_usd).toBeLessThanOrEqual(0.05);
    expect(spentByRole).toBeCloseTo(stats.budget.spent_usd, 10);
    expect(stats.refused_budget).toBeGreaterThanOrEqual(3);

    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toMatch(
      /apb serve: stopped after \d+ request\(s\) in \d+ planned conversation\(s\); usage: .*agent \d+ calls.*; --max-cost 0\.05 USD: spent about \$0\.0\d{3}, \d+ request\(s\) refused/,
    );
  }, 60_000);
});
