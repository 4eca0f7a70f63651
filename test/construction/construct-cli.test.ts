/**
 * `apb construct` through the real CLI on its edges: bad input named by file, line and field; the
 * rule check's rejection naming the record and the call; the review queue read back; the image
 * cases of the built-in sample made visual_missing; refusals of unsafe or meaningless requests.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runMain } from '../helpers/cli.js';

const root = mkdtempSync(path.join(tmpdir(), 'apb-construct-cli-'));
const tools = [
  {
    name: 'get_order',
    description: 'Get an order.',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' } },
      required: ['order_id'],
    },
  },
];
const line = (id: string, call: string, extra: Record<string, unknown> = {}) => ({
  id,
  messages: [
    { role: 'user', content: `Where is order #W${id}?` },
    {
      role: 'assistant',
      content: 'Look it up.',
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: call, arguments: `{"order_id": "#W${id}"}` },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"status": "shipped"}' },
    { role: 'assistant', content: 'It has shipped.' },
  ],
  tools,
  ...extra,
});
const write = (name: string, lines: unknown[]) => {
  const file = path.join(root, name);
  writeFileSync(
    file,
    lines.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('\n'),
  );
  return file;
};
const jsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((text) => JSON.parse(text) as Record<string, unknown>);

describe('apb construct (CLI)', () => {
  it('refuses a bad trajectories file with every problem as FILE:LINE: field: message, writing nothing', async () => {
    const file = write('bad.jsonl', [
      line('1', 'get_order'),
      '{"messages": [], "tools": []',
      { messages: [{ role: 'assistant', content: 'no query' }], tools },
      line('4', 'get_order', { files: [{ path: '../outside.png', type: 'image' }] }),
    ]);
    const out = path.join(root, 'bad-out');
    const result = await runCli([
      'construct',
      'import',
      '--from',
      'trajectories',
      '--in',
      file,
      '--out',
      out,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bad\.jsonl:2: \(line\): invalid JSON/);
    expect(result.stderr).toMatch(/bad\.jsonl:3: messages\[0\]: expected the user query/);
    expect(result.stderr).toMatch(
      /bad\.jsonl:4: files\[0\]\.path: path "\.\.\/outside\.png" escapes the dataset root/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it('rejects a trajectory calling an unlisted tool, naming the record and the call; queues the rest; reads review decisions back', async () => {
    const file = write('trajectories.jsonl', [
      line('1', 'get_order'),
      line('2', 'ghost_tool'),
      line('3', 'get_order'),
      line('4', 'get_order'),
    ]);
    const imported = path.join(root, 'imported');
    expect(
      (
        await runCli([
          'construct',
          'import',
          '--from',
          'trajectories',
          '--in',
          file,
          '--out',
          imported,
        ])
      ).code,
    ).toBe(0);
    const checked = path.join(root, 'checked');
    const check = await runCli(['construct', 'check', '--in', imported, '--out', checked]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toContain(
      'rejected 2 (rule): messages[0].tool_calls[0].name: calls "ghost_tool", which is not a listed tool',
    );
    expect(jsonl(path.join(checked, 'rejected.jsonl')).map((item) => item.id)).toEqual(['2']);
    const queue = jsonl(path.join(checked, 'review.jsonl'));
    expect(queue.map((item) => [item.id, item.decision])).toEqual([
      ['1', 'pending'],
      ['3', 'pending'],
      ['4', 'pending'],
    ]);
    const edited = {
      ...jsonl(path.join(checked, 'sources.jsonl'))[1]!,
      query: 'Where is my order #W3? I ordered it last week.',
    };
    const typo = {
      ...edited,
      messages: [
        {
          ...(edited.messages as Array<Record<string, unknown>>)[0],
          tool_calls: [{ id: 'c1', name: 'get_ordr', arguments: { order_id: '#W3' } }],
        },
      ],
    };
    write('checked/review.jsonl', [
      { ...queue[0], decision: 'accepted' },
      { ...queue[1], decision: 'edited', record: typo },
      { ...queue[2], decision: 'rejected', note: 'duplicate of 1' },
    ]);
    const refused = await runCli([
      'construct',
      'holistic',
      '--in',
      checked,
      '--out',
      path.join(root, 'holistic-typo'),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /review\.jsonl:2: record: the edited record fails the rule check: messages\[0\]\.tool_calls\[0\]\.name: calls "get_ordr"/,
    );
    write('checked/review.jsonl', [
      { ...queue[0], decision: 'accepted' },
      { ...queue[1], decision: 'edited', record: edited },
      { ...queue[2], decision: 'rejected', note: 'duplicate of 1' },
    ]);
    const holistic = path.join(root, 'holistic');
    const made = await runCli(['construct', 'holistic', '--in', checked, '--out', holistic]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toMatch(
      /2 holistic_planning, 1 skipped .*review: 1 accepted, 1 edited, 1 rejected, 0 not reviewed/,
    );
    expect(
      jsonl(path.join(holistic, 'data', 'holistic_planning.jsonl')).map((item) => item.query),
    ).toEqual(['Where is order #W1?', 'Where is my order #W3? I ordered it last week.']);
    expect((await runCli(['data', 'validate', holistic])).code).toBe(0);
  });

  it('makes the image cases of the built-in sample visual_missing: no files, valid, refused by the oracle', async () => {
    const out = path.join(root, 'visual');
    const result = await runCli([
      'construct',
      'unsolvable',
      '--in',
      'sample',
      '--types',
      'visual_missing',
      '--out',
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const cases = jsonl(path.join(out, 'data', 'holistic_unsolvable.jsonl'));
    expect(cases.length).toBe(3);
    for (const item of cases)
      expect([item.unsolvable_type, item.files]).toEqual(['visual_missing', []]);
    expect((await runCli(['data', 'validate', out])).code).toBe(0);
    const run = await runCli([
      'run',
      '--data',
      out,
      '--model',
      'baseline:oracle',
      '--out',
      path.join(root, 'visual-run'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(
      JSON.parse(readFileSync(path.join(root, 'visual-run', 'scores.json'), 'utf8')).groups
        .holistic_unsolvable,
    ).toMatchObject({ records: 3, accuracy: 1 });
  });

  it('--solved-by keeps the efficiency cases whose holistic case every run solved', async () => {
    const run = async (model: string) => {
      const out = path.join(root, `run-${model.replace(':', '-')}`);
      const result = await runCli([
        'run',
        '--model',
        model,
        '--splits',
        'holistic_planning',
        '--out',
        out,
      ]);
      expect(result.code, result.stderr).toBe(0);
      return out;
    };
    const [oracle, refuse] = [await run('baseline:oracle'), await run('baseline:refuse')];
    const all = await runCli([
      'construct',
      'efficiency',
      '--in',
      'sample',
      '--out',
      path.join(root, 'eff-all'),
      '--solved-by',
      oracle,
    ]);
    expect(all.code, all.stderr).toBe(0);
    const kept = jsonl(path.join(root, 'eff-all', 'data', 'holistic_efficiency.jsonl'));
    expect(kept.length).toBeGreaterThan(0);
    const none = await runCli([
      'construct',
      'efficiency',
      '--in',
      'sample',
      '--out',
      path.join(root, 'eff-none'),
      '--solved-by',
      oracle,
      '--solved-by',
      refuse,
    ]);
    expect(none.code, none.stderr).toBe(0);
    const skipped = jsonl(path.join(root, 'eff-none', 'meta', 'skipped.jsonl')).filter((item) =>
      String(item.reason).startsWith('not solved by'),
    );
    expect(skipped.map((item) => item.parent_id).sort()).toEqual(
      kept
        .map(
          (item) =>
            jsonl(path.join(root, 'eff-all', 'meta', 'holistic_efficiency.jsonl')).find(
              (line) => line.id === item.id,
            )!.parent_id,
        )
        .sort(),
    );
  });

  it('refuses what it cannot do sensibly, in one line with exit 2', async () => {
    const foreign = path.join(root, 'foreign');
    mkdirSync(foreign);
    writeFileSync(path.join(foreign, 'notes.txt'), 'mine');
    const cases: Array<[string[], RegExp]> = [
      [
        ['construct', 'holistic', '--in', path.join(root, 'checked'), '--out', foreign],
        /is not empty and was not written by apb construct/,
      ],
      [
        [
          'construct',
          'holistic',
          '--in',
          path.join(root, 'checked'),
          '--out',
          path.join(root, 'checked'),
        ],
        /is also an input/,
      ],
      [
        ['construct', 'extraneous', '--in', 'sample', '--out', path.join(root, 'x')],
        /needs distractors: --pool FILE \(deterministic\) or --llm SPEC/,
      ],
      [
        [
          'construct',
          'unsolvable',
          '--in',
          'sample',
          '--types',
          'information_missing',
          '--out',
          path.join(root, 'u'),
        ],
        /need --llm SPEC/,
      ],
      [
        [
          'construct',
          'import',
          '--from',
          'tau2',
          '--in',
          'somewhere',
          '--out',
          path.join(root, 't'),
        ],
        /leave out --in/,
      ],
      [
        ['construct', 'augment', '--in', path.join(root, 'checked'), '--out', path.join(root, 'a')],
        /construct augment needs --llm SPEC: B\.1 enriches queries/,
      ],
      [
        [
          'construct',
          'unsolvable',
          '--in',
          path.join(root, 'holistic'),
          '--types',
          'tool_removal,visual_missing',
          '--out',
          path.join(root, 'u'),
        ],
        /visual_missing needs cases with an image or video \(Fig\. 17 removes them\), and none of the \d+ holistic parents/,
      ],
      [
        ['construct', 'import', '--from', 'tau3', '--out', path.join(root, 't')],
        /allowed values: tau2, trajectories/,
      ],
      [
        [
          'construct',
          'cuts',
          '--in',
          path.join(root, 'checked'),
          '--ratios',
          '0.5,1.5',
          '--out',
          path.join(root, 'c'),
        ],
        /--ratios/,
      ],
    ];
    const config = path.join(root, 'pipeline.yaml');
    writeFileSync(config, 'seed: 3\nsteps:\n  - step: import\n    frm: tau2\n  - step: cutz\n');
    cases.push([
      ['construct', 'pipeline', '--config', config, '--out', path.join(root, 'p')],
      /pipeline\.yaml:3: steps\[0\]: unknown key\(s\) frm[\s\S]*pipeline\.yaml:5: steps\[1\]\.step/,
    ]);
    const augment = path.join(root, 'augment.json');
    writeFileSync(
      augment,
      JSON.stringify({ steps: [{ step: 'import', from: 'tau2' }, { step: 'augment' }] }),
    );
    cases.push([
      ['construct', 'pipeline', '--config', augment, '--out', path.join(root, 'pa')],
      /pipeline step 02-augment \(augment\) needs a model: give --llm SPEC/,
    ]);
    // In process (the CLI's own `main`): the refusals need no Node start-up each.
    for (const [args, message] of cases) {
      const result = await runMain(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(readFileSync(path.join(foreign, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(path.join(root, 'pa')), 'refused before any step ran').toBe(false);
  });
});
