/**
 * The model steps of `apb construct`, through the real CLI against the loopback fake server (a
 * scripted construction model): every step's output validates, the response cache makes a rerun
 * byte-identical without one request, the audit rejects what it flags, `--dry-run` calls nothing
 * and `--max-cost` stops the step.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { runCli } from '../helpers/cli.js';
import { constructionReply } from './construct-replies.js';

const root = mkdtempSync(path.join(tmpdir(), 'apb-construct-llm-'));
const cacheDir = path.join(root, 'cache');
let server: FakeServer;

const object = (properties: Record<string, string>) => ({
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(properties).map(([name, type]) => [name, { type }]),
  ),
  required: Object.keys(properties),
});
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'search_flights',
      description: 'Search flights for a date and route.',
      parameters: object({ origin: 'string', destination: 'string', date: 'string' }),
    },
  },
  {
    type: 'function',
    function: {
      name: 'book_flight',
      description: 'Book a flight offer for a traveller.',
      parameters: object({ flight_id: 'string', traveller: 'string' }),
    },
  },
  {
    type: 'function',
    function: {
      name: 'add_checked_bag',
      description: 'Add checked bags to a booking.',
      parameters: object({ booking: 'string', bags: 'integer' }),
    },
  },
  {
    type: 'function',
    function: {
      name: 'send_email',
      description: 'Send an email.',
      parameters: object({ to: 'string', body: 'string' }),
    },
  },
];

function trajectory(id: string, query: string) {
  const call = (callId: string, name: string, args: unknown, result: string) => [
    {
      role: 'assistant',
      content: `Next: ${name}.`,
      tool_calls: [
        { id: callId, type: 'function', function: { name, arguments: JSON.stringify(args) } },
      ],
    },
    { role: 'tool', tool_call_id: callId, content: result },
  ];
  return {
    id,
    messages: [
      { role: 'system', content: 'You are a travel desk agent.' },
      { role: 'user', content: query },
      ...call(
        'a',
        'search_flights',
        { origin: 'LIS', destination: 'AMS', date: '2025-03-14' },
        '[{"flight_id": "TP662", "fare": 150}]',
      ),
      ...call(
        'b',
        'book_flight',
        { flight_id: 'TP662', traveller: 'TP-4471' },
        '{"booking": "BK-1"}',
      ),
      ...call('c', 'add_checked_bag', { booking: 'BK-1', bags: 1 }, '{"ok": true}'),
      ...call(
        'd',
        'send_email',
        { to: 'ines@example.com', body: 'BK-1, TP662, one bag' },
        '{"sent": true}',
      ),
      // A tool used again after it worked (send_email): what `broken` breaks (F.3).
      ...call(
        'e',
        'send_email',
        { to: 'ines@example.com', body: 'Receipt for BK-1' },
        '{"sent": true}',
      ),
      { role: 'assistant', content: 'Booked and sent.' },
    ],
    tools: TOOLS,
    source: 'test-agent',
  };
}

const input = path.join(root, 'trajectories.jsonl');
writeFileSync(
  input,
  [
    trajectory(
      't1',
      'Book me the cheapest flight LIS to AMS on 14 March 2025 with a bag, then email ines@example.com.',
    ),
    trajectory(
      't2',
      'Fly me LIS to AMS on 14 March 2025 (MARK-AUDIT-FAIL), with one bag; email the itinerary to ines@example.com.',
    ),
    trajectory(
      't3',
      'Book LIS to AMS on 2025-03-14 for TP-4471, one bag, and email me at ines@example.com.',
    ),
  ]
    .map((line) => JSON.stringify(line))
    .join('\n'),
);
const config = path.join(root, 'pipeline.json');
writeFileSync(
  config,
  JSON.stringify({
    seed: 5,
    steps: [
      { step: 'import', from: 'trajectories', in: [input] },
      { step: 'check' },
      { step: 'holistic' },
      { step: 'cuts', llm: false },
      { step: 'extraneous', levels: [2, 4] },
      { step: 'broken' },
      { step: 'unsolvable', in: ['03-holistic', 'sample'] },
      { step: 'efficiency' },
    ],
  }),
);

const env = () => ({ APB_CACHE_DIR: cacheDir, OPENAI_API_KEY: 'sk-fake-construct' });
const model = () => [
  '--llm',
  'openai-compatible:fake-constructor',
  '--llm-base-url',
  server.baseUrl('openai'),
];
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const files = (dir: string, prefix = ''): string[] =>
  readdirSync(path.join(dir, prefix))
    .flatMap((name) =>
      statSync(path.join(dir, prefix, name)).isDirectory()
        ? files(dir, path.join(prefix, name))
        : [path.join(prefix, name)],
    )
    .sort();

beforeAll(async () => {
  server = await startFakeServer({ respond: constructionReply });
});
afterAll(async () => {
  await server.close();
});

describe('apb construct with --llm (scripted fake over real HTTP)', () => {
  const out = path.join(root, 'llm');
  let firstRequests = 0;

  beforeAll(async () => {
    const result = await runCli(
      ['construct', 'pipeline', '--config', config, '--out', out, ...model()],
      { env: env(), timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    firstRequests = server.count();
  }, 150_000);

  it('builds every split with the model, and the output validates', async () => {
    expect(firstRequests).toBeGreaterThan(20);
    const validate = await runCli(['data', 'validate', out]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    expect(readdirSync(path.join(out, 'data')).sort()).toEqual([
      'holistic_efficiency.jsonl',
      'holistic_planning.jsonl',
      'holistic_tool_extraneous.jsonl',
      'holistic_unsolvable.jsonl',
      'step_wise_planning.jsonl',
      'step_wise_tool_broken.jsonl',
      'step_wise_tool_extraneous.jsonl',
    ]);
    const holistic = lines(path.join(out, 'meta', 'holistic_planning.jsonl'));
    expect(
      holistic.map((line) => [line.model, (line.generated as Record<string, unknown>).plan]),
    ).toEqual([
      ['openai-compatible:fake-constructor', 'model'],
      ['openai-compatible:fake-constructor', 'model'],
    ]);
    expect(holistic[0]!.prompt_version).toMatch(/^construct-holistic@[0-9a-f]{10}$/);
    const types = new Set(
      lines(path.join(out, 'data', 'holistic_unsolvable.jsonl')).map(
        (record) => record.unsolvable_type,
      ),
    );
    expect([...types].sort()).toEqual([
      'contradictory_constraints',
      'information_missing',
      'tool_removal',
      'visual_missing',
    ]);
    expect(
      lines(path.join(out, 'meta', 'holistic_efficiency.jsonl')).map(
        (line) => (line.generated as Record<string, unknown>).from,
      ),
    ).toContain('model');
    expect(
      lines(path.join(out, 'meta', 'step_wise_tool_broken.jsonl')).every(
        (line) => (line.generated as Record<string, unknown>).replacement_from === 'model',
      ),
    ).toBe(true);
    expect(
      lines(path.join(out, 'data', 'holistic_tool_extraneous.jsonl')).map(
        (record) => JSON.parse(record.extraneous_tool_names_json as string).length,
      ),
    ).toEqual([2, 4, 2, 4]);
  });

  it('rejects the trajectory the audit flags, with the stage and the reason; the rest wait for review', () => {
    const check = path.join(out, 'steps', '02-check');
    expect(
      lines(path.join(check, 'rejected.jsonl')).map((line) => [
        line.id,
        line.stage,
        (line.reasons as string[])[0],
      ]),
    ).toEqual([['t2', 'trajectory-audit', 'audit flags E4']]);
    expect(lines(path.join(check, 'review.jsonl')).map((line) => [line.id, line.decision])).toEqual(
      [
        ['t1', 'pending'],
        ['t3', 'pending'],
      ],
    );
  });

  it('replays every reply from the cache on a rerun: byte-identical files, no request', async () => {
    const again = path.join(root, 'llm-again');
    const result = await runCli(
      ['construct', 'pipeline', '--config', config, '--out', again, ...model()],
      { env: env(), timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.count()).toBe(firstRequests);
    expect(files(again)).toEqual(files(out));
    for (const file of files(out))
      expect(
        readFileSync(path.join(again, file)).equals(readFileSync(path.join(out, file))),
        file,
      ).toBe(true);
  }, 150_000);

  it('--dry-run counts the calls and sends none', async () => {
    const before = server.count();
    const result = await runCli(
      [
        'construct',
        'holistic',
        '--in',
        path.join(out, 'steps', '02-check'),
        '--out',
        path.join(root, 'dry'),
        '--dry-run',
        ...model(),
      ],
      { env: env() },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /openai-compatible:fake-constructor: 2 call\(s\), about \d+ input tokens/,
    );
    expect(server.count()).toBe(before);
  });

  it('--max-cost stops the step before it overspends, and says how to continue', async () => {
    const result = await runCli(
      [
        'construct',
        'check',
        '--in',
        path.join(out, 'steps', '01-import'),
        '--out',
        path.join(root, 'budget'),
        '--max-cost',
        '0.00001',
        '--no-cache',
        '--llm',
        'openai:gpt-4o',
        '--llm-base-url',
        server.baseUrl('openai'),
      ],
      { env: env() },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--max-cost 0.00001 USD reached/);
    expect(result.stderr).toMatch(/rerun with a higher --max-cost/);
  });
});
