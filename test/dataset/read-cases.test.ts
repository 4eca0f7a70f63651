/** The released-layout reader: accepted shapes and every malformed input, reported as FILE:LINE: field: message. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAllCases } from '../../src/dataset/read-cases.js';
import { InputError, formatIssue } from '../../src/errors.js';
import { holisticRecord, writeDataset } from '../helpers/dataset.js';

const line = (overrides: Record<string, unknown> = {}) => JSON.stringify(holisticRecord(overrides));

async function issuesOf(
  files: Record<string, string[]>,
  extra: Record<string, string | Buffer> = {},
): Promise<string[]> {
  const dir = writeDataset(files, extra);
  const { issues } = await readAllCases(dir, { skipInvalid: true });
  // Paths are shown relative to the working directory; keep only the file name for the assertions.
  return issues.map((issue) => formatIssue({ ...issue, file: path.basename(issue.file) }));
}

describe('readCases accepts real-data variation', () => {
  it('accepts a BOM, CRLF line ends and blank lines, keeping line numbers', async () => {
    const dir = writeDataset({
      holistic_planning: [`\uFEFF${line()}\r`, '', `${line({ id: 'hp-2' })}\r`],
    });
    const { cases } = await readAllCases(dir);
    expect(cases.map((item) => [item.id, item.location.line])).toEqual([
      ['hp-1', 1],
      ['hp-2', 3],
    ]);
  });

  it('gives each case the content hash that resume fingerprints were made with: sha256 of the trimmed line, 16 hex digits', async () => {
    const text = line({ id: 'hp-9' });
    const dir = writeDataset({ holistic_planning: [`  ${text}\r`] });
    const [item] = (await readAllCases(dir)).cases;
    expect(item!.recordText).toBe(text);
    expect(item!.contentHash).toBe(createHash('sha256').update(text).digest('hex').slice(0, 16));
  });

  it('normalises the tool-definition shapes found in real data', async () => {
    const tools = [
      {
        type: 'function',
        function: {
          name: 'find_flights',
          description: 'OpenAI shape',
          parameters: { type: 'object', properties: {} },
        },
      },
      { name: 'book_flight', description: 'plain shape', example: { flight_id: 'X' } },
      'click(x, y): click at a screen position',
      { tool_name: 'scroll', description: 'legacy key' },
    ];
    const dir = writeDataset({ holistic_planning: [line({ tools_json: JSON.stringify(tools) })] });
    const { cases } = await readAllCases(dir);
    expect(cases[0]!.input.tools.map((tool) => tool.name)).toEqual([
      'find_flights',
      'book_flight',
      'click',
      'scroll',
    ]);
    expect(cases[0]!.input.tools[1]!.example).toBe('{"flight_id":"X"}');
  });

  it('normalises the trajectory message shapes of the audit §1.4', async () => {
    const prefix = [
      { role: 'user', content: 'Book me a flight.' },
      {
        role: 'assistant',
        thought: 'search first',
        tool_calls: [
          { type: 'function', function: { name: 'find_flights', arguments: '{"origin":"LIS"}' } },
        ],
      },
      { role: 'tool', content: [{ type: 'text', text: '3 flights' }] },
      {
        role: 'assistant',
        content: 'Observation: page loaded. Thought: click.',
        action: 'click the first row',
      },
      {
        step: 3,
        thought: 'book',
        tool: 'book_flight',
        arguments: { flight_id: 'F1' },
        observation: { ok: true },
        observation_source: 'synthetic',
      },
    ];
    const record = {
      split: 'step_wise_planning',
      planning_regime: 'Step-wise',
      prediction_horizon: 1,
      trajectory_prefix_json: JSON.stringify(prefix),
      ground_truth_steps_json: JSON.stringify([
        {
          role: 'assistant',
          tool_calls: [{ function: { name: 'book_flight', arguments: { flight_id: 'F1' } } }],
        },
      ]),
    };
    const dir = writeDataset({ step_wise_planning: [line(record)] });
    const { cases } = await readAllCases(dir);
    const messages = cases[0]!.input.trajectoryPrefix;
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'assistant',
      'tool',
    ]);
    expect(messages[1]!.toolCalls).toEqual([
      { name: 'find_flights', arguments: { origin: 'LIS' } },
    ]);
    expect(messages[2]!.text).toBe('3 flights');
    expect(messages[3]!.action).toBe('click the first row');
    expect(messages[5]!.text).toBe('{"ok":true}');
    expect(JSON.stringify(messages)).not.toContain('synthetic');
    expect(cases[0]!.reference.groundTruthSteps[0]!.toolCalls[0]!.name).toBe('book_flight');
  });

  it('accepts *_json fields that a converter already decoded', async () => {
    const dir = writeDataset({
      holistic_planning: [
        line({
          tools_json: JSON.parse(String(holisticRecord().tools_json)),
          tool_chain_json: JSON.parse(String(holisticRecord().tool_chain_json)),
        }),
      ],
    });
    const { cases } = await readAllCases(dir);
    expect(cases[0]!.reference.toolChain).toHaveLength(2);
  });
});

describe('readCases reports every malformed input with file, line and field', () => {
  const cases: [string, Record<string, string[]>, string[], Record<string, string | Buffer>?][] = [
    [
      'invalid JSON',
      { holistic_planning: [line(), '{"id": "x",'] },
      ['holistic_planning.jsonl:2: (line): invalid JSON'],
    ],
    [
      'not an object',
      { holistic_planning: ['[1, 2]'] },
      ['holistic_planning.jsonl:1: (line): expected a JSON object'],
    ],
    [
      'missing field',
      { holistic_planning: [JSON.stringify({ ...holisticRecord(), query: undefined })] },
      ['holistic_planning.jsonl:1: query:'],
    ],
    [
      'mistyped field',
      { holistic_planning: [line({ query: 42 })] },
      ['holistic_planning.jsonl:1: query:'],
    ],
    [
      'unknown split',
      { holistic_planning: [line({ split: 'holistic_plans' })] },
      ['holistic_planning.jsonl:1: split:'],
    ],
    [
      'split of another file',
      {
        holistic_planning: [
          line({ split: 'holistic_unsolvable', unsolvable_type: 'tool_removal' }),
        ],
      },
      ['holistic_planning.jsonl:1: split: "holistic_unsolvable" does not match'],
    ],
    [
      'unknown planning_regime',
      { holistic_planning: [line({ planning_regime: 'Offline' })] },
      ['holistic_planning.jsonl:1: planning_regime:'],
    ],
    [
      'regime of another split',
      { holistic_planning: [line({ planning_regime: 'Step-wise' })] },
      ['holistic_planning.jsonl:1: planning_regime: "Step-wise" does not match'],
    ],
    [
      '*_json that does not parse',
      { holistic_planning: [line({ tools_json: '[{"name": ' })] },
      ['holistic_planning.jsonl:1: tools_json: not valid JSON'],
    ],
    [
      '*_json of the wrong shape',
      { holistic_planning: [line({ tool_chain_json: '[{"parameter_description": {}}]' })] },
      ['holistic_planning.jsonl:1: tool_chain_json[0]: a tool-chain node needs a name'],
    ],
    [
      'tool of the wrong shape',
      { holistic_planning: [line({ tools_json: '[{"description": "no name"}]' })] },
      ['holistic_planning.jsonl:1: tools_json[0]:'],
    ],
    [
      'horizon out of range',
      { holistic_planning: [line({ prediction_horizon: 4 })] },
      ['holistic_planning.jsonl:1: prediction_horizon: must be 1, 2 or 3'],
    ],
    [
      'duplicate id in a file',
      { holistic_planning: [line(), line()] },
      ['holistic_planning.jsonl:2: id: duplicate id "hp-1" (first at'],
    ],
    [
      'duplicate id across splits',
      {
        holistic_planning: [line()],
        holistic_tool_extraneous: [
          line({
            split: 'holistic_tool_extraneous',
            extraneous_tool_names_json: '["book_flight"]',
          }),
        ],
      },
      ['holistic_tool_extraneous.jsonl:1: id: duplicate id "hp-1"'],
    ],
    [
      'file escaping the root',
      { holistic_planning: [line({ files: [{ path: '../../etc/passwd', type: 'text' }] })] },
      [
        'holistic_planning.jsonl:1: files[0].path: path "../../etc/passwd" escapes the dataset root',
      ],
    ],
    [
      'absolute file path',
      { holistic_planning: [line({ files: [{ path: '/etc/passwd' }] })] },
      ['holistic_planning.jsonl:1: files[0].path: path "/etc/passwd" must be relative'],
    ],
    [
      'missing file',
      { holistic_planning: [line({ files: [{ path: 'assets/none.png', type: 'image' }] })] },
      ['holistic_planning.jsonl:1: files[0].path: file "assets/none.png" does not exist'],
    ],
    [
      'unsolvable without a type',
      { holistic_unsolvable: [line({ split: 'holistic_unsolvable', tool_chain_json: '[]' })] },
      ['holistic_unsolvable.jsonl:1: unsolvable_type: required'],
    ],
    [
      'unknown unsolvable type',
      {
        holistic_unsolvable: [line({ split: 'holistic_unsolvable', unsolvable_type: 'too_hard' })],
      },
      ['holistic_unsolvable.jsonl:1: unsolvable_type:'],
    ],
    [
      'distractor not listed',
      {
        holistic_tool_extraneous: [
          line({ split: 'holistic_tool_extraneous', extraneous_tool_names_json: '["ghost_tool"]' }),
        ],
      },
      [
        'holistic_tool_extraneous.jsonl:1: extraneous_tool_names_json[0]: distractor "ghost_tool" is not in tools_json',
      ],
    ],
    [
      'step-wise without horizon',
      {
        step_wise_planning: [
          line({
            split: 'step_wise_planning',
            planning_regime: 'Step-wise',
            ground_truth_steps_json: '[{"name": "book_flight"}]',
          }),
        ],
      },
      ['step_wise_planning.jsonl:1: prediction_horizon: required'],
    ],
    [
      'broken without replacement',
      {
        step_wise_tool_broken: [
          line({
            split: 'step_wise_tool_broken',
            planning_regime: 'Step-wise',
            prediction_horizon: 1,
            broken_tool_name: 'book_flight',
          }),
        ],
      },
      ['step_wise_tool_broken.jsonl:1: replacement_tool_json: required'],
    ],
    [
      'efficiency tool without cost',
      { holistic_efficiency: [line({ split: 'holistic_efficiency' })] },
      [
        'holistic_efficiency.jsonl:1: tools_json[0].cost: every tool of holistic_efficiency needs a numeric cost',
      ],
    ],
  ];

  it.each(cases)('%s', async (_name, files, expected, extra) => {
    const issues = await issuesOf(files, extra);
    for (const prefix of expected)
      expect(
        issues.some((issue) => issue.startsWith(prefix)),
        `${prefix}\n  in\n${issues.join('\n')}`,
      ).toBe(true);
  });

  it('throws one InputError listing every problem unless skipInvalid', async () => {
    const dir = writeDataset({
      holistic_planning: ['{oops', line({ id: 'ok-1' }), line({ id: 'x', query: 1 })],
    });
    const error = await readAllCases(dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).issues.map((issue) => issue.line)).toEqual([1, 3]);
    const skipped = await readAllCases(dir, { skipInvalid: true });
    expect(skipped.cases.map((item) => item.id)).toEqual(['ok-1']);
    expect(skipped.invalidRecords).toBe(2);
  });
});

describe('the trusted second pass of a run', () => {
  it('builds exactly the cases the validating pass builds, and skips the lines it found invalid', async () => {
    const { SAMPLE_DATASET_DIR, readCases } = await import('../../src/dataset/read-cases.js');
    const collect = async (dir: string, options: Parameters<typeof readCases>[1]) => {
      const items = [];
      for await (const item of readCases(dir, options)) items.push(item);
      return items;
    };
    const validated = await collect(SAMPLE_DATASET_DIR, {});
    const trusted = await collect(SAMPLE_DATASET_DIR, { trusted: { invalidLines: new Set() } });
    expect(trusted).toEqual(validated);
    const dir = writeDataset({
      holistic_planning: [line(), '{oops', line({ id: 'hp-2', query: 3 }), line({ id: 'hp-3' })],
    });
    const first = await collect(dir, {});
    const invalidLines = new Set(
      first.flatMap((item) =>
        item.kind === 'invalid' ? [`${item.issues[0]!.file}:${item.issues[0]!.line}`] : [],
      ),
    );
    const second = await collect(dir, { trusted: { invalidLines } });
    expect(second).toEqual(first.filter((item) => item.kind === 'case'));
  });
});

describe('the dataset content hash of a run', () => {
  it('is the same whether the validation pass computes it while reading or the files are hashed on their own', async () => {
    const { SAMPLE_DATASET_DIR } = await import('../../src/dataset/read-cases.js');
    const { datasetContentHash } = await import('../../src/dataset/content-hash.js');
    const { checkSelection } = await import('../../src/pipeline/select-cases.js');
    const splits = ['holistic_planning', 'step_wise_planning', 'holistic_unsolvable'] as const;
    const check = await checkSelection(
      { datasetDir: SAMPLE_DATASET_DIR, splits: [...splits], repeats: 1 },
      false,
    );
    expect(check.datasetHash).toBe(await datasetContentHash(SAMPLE_DATASET_DIR, splits));
    // Another selection hashes other bytes.
    expect(await datasetContentHash(SAMPLE_DATASET_DIR, ['holistic_planning'])).not.toBe(
      check.datasetHash,
    );
    // A pass that stops early (--limit) leaves the hash to be computed on its own.
    const limited = await checkSelection(
      { datasetDir: SAMPLE_DATASET_DIR, splits: [...splits], repeats: 1, limitPerSplit: 2 },
      false,
    );
    expect(limited.datasetHash).toBeNull();
  });

  it('covers invalid lines too (it hashes bytes, not cases)', async () => {
    const { datasetContentHash } = await import('../../src/dataset/content-hash.js');
    const { checkSelection } = await import('../../src/pipeline/select-cases.js');
    const dir = writeDataset({ holistic_planning: [line(), '{oops', line({ id: 'hp-3' })] });
    const check = await checkSelection(
      { datasetDir: dir, splits: ['holistic_planning'], repeats: 1 },
      true,
    );
    expect(check.invalidRecords).toBe(1);
    expect(check.datasetHash).toBe(await datasetContentHash(dir, ['holistic_planning']));
  });
});

describe('the caps a reader is given', () => {
  it('two reads of one dataset in flight at once each keep their own caps (no shared state)', async () => {
    const { DEFAULT_LIMITS } = await import('../../src/limits.js');
    // Each record nests deeper than 2 levels: a cap of 2 refuses both lines, the default neither.
    const dir = writeDataset({ holistic_planning: [line(), line({ id: 'hp-2' })] });
    const strict = { ...DEFAULT_LIMITS, jsonDepth: 2 };
    const [capped, free] = await Promise.all([
      readAllCases(dir, { skipInvalid: true, limits: strict }),
      readAllCases(dir, { skipInvalid: true }),
    ]);
    expect(capped.cases).toHaveLength(0);
    expect(capped.invalidRecords).toBe(2);
    expect(capped.issues[0]?.message).toContain('nested more than 2 levels deep');
    expect(free.cases.map((item) => item.id)).toEqual(['hp-1', 'hp-2']);
    expect(free.invalidRecords).toBe(0);
  });
});
