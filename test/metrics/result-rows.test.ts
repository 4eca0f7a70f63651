/** Judgement lines → ResultRows: strict verdict parsing, lenient facets for official lines, the streaming reader. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileResolver } from '../../src/dataset/files.js';
import { parseRecordLine } from '../../src/dataset/parse-record.js';
import {
  behaviorOf,
  derivedFacets,
  errorFlagsOf,
  gradeOf,
  readResultRows,
  rowFromJudgementLine,
} from '../../src/pipeline/result-rows.js';
import { officialBoolean } from '../../src/rundir/schemas/index.js';

const tools = (...names: string[]) =>
  JSON.stringify(
    names.map((name) => ({
      name,
      description: `${name} tool`,
      parameters: { type: 'object', properties: {} },
    })),
  );
const chain = (...names: string[]) =>
  JSON.stringify(names.map((name) => ({ name, parameter_description: {}, reason: 'r' })));

const RECORDS: Record<string, Record<string, unknown>> = {
  holistic: {
    id: 'h-1',
    split: 'holistic_planning',
    planning_regime: 'Holistic',
    task_family: 'planning',
    task_category: 'travel',
    source: 'gta',
    query: 'Plan  a   trip',
    tools_json: tools('search', 'book', 'pay'),
    files: [{ path: 'assets/a.png', type: 'image' }],
    plan: 'search, book, pay',
    tool_chain_json: chain('search', 'book', 'pay'),
  },
  stepWise: {
    id: 's-1',
    split: 'step_wise_planning',
    planning_regime: 'Step-wise',
    query: 'Do it',
    tools_json: tools('a', 'b', 'c'),
    files: [{ path: 'assets/v.mp4', type: 'video' }],
    prediction_horizon: 2,
    trajectory_prefix_json: JSON.stringify([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ type: 'function', function: { name: 'a', arguments: '{}' } }],
      },
      { role: 'tool', content: 'ok' },
    ]),
    ground_truth_steps_json: JSON.stringify([
      { name: 'b', parameter_description: {} },
      { name: 'c', parameter_description: {} },
    ]),
    reference_remaining_steps_json: JSON.stringify([{ name: 'b' }, { name: 'c' }, { name: 'a' }]),
  },
  extraneous: {
    id: 'x-1',
    split: 'holistic_tool_extraneous',
    query: 'Plan a trip',
    tools_json: tools('search', 'book', 'pay', 'decoy1', 'decoy2'),
    tool_chain_json: chain('search', 'book'),
    extraneous_tool_names_json: JSON.stringify(['decoy1', 'decoy2']),
  },
  unsolvable: {
    id: 'u-1',
    split: 'holistic_unsolvable',
    query: 'Impossible',
    tools_json: tools('search'),
    unsolvable_type: 'visual_missing',
    files: ['assets/frame_001.jpg'],
  },
};

describe('derivedFacets (official lines, no filesystem)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'apb-facets-'));
  mkdirSync(path.join(root, 'assets'));
  for (const file of ['a.png', 'v.mp4', 'frame_001.jpg'])
    writeFileSync(path.join(root, 'assets', file), 'x');
  const resolver = new FileResolver(root);

  it.each(Object.entries(RECORDS))(
    'equals the dataset reader’s facets for the %s record',
    (_name, record) => {
      const parsed = parseRecordLine(
        JSON.stringify(record),
        { file: 'f.jsonl', line: 1, fileSplit: null },
        resolver,
      );
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      expect(derivedFacets(record, record.split as never)).toEqual(parsed.case.facets);
    },
  );

  it('derives the facets the breakdowns need', () => {
    expect(derivedFacets(RECORDS.holistic!, 'holistic_planning')).toMatchObject({
      modality: 'image',
      referenceSteps: 3,
      taskCategory: 'travel',
    });
    expect(derivedFacets(RECORDS.stepWise!, 'step_wise_planning')).toMatchObject({
      modality: 'video',
      horizon: 2,
      referenceSteps: 4,
      stage: 'early',
    });
    expect(derivedFacets(RECORDS.extraneous!, 'holistic_tool_extraneous')).toMatchObject({
      distractorLevel: 2,
    });
    // an extraneous variant keeps its base case's query, so their keys match (whitespace-normalised)
    expect(derivedFacets(RECORDS.extraneous!, 'holistic_tool_extraneous').baseCaseKey).toBe(
      derivedFacets(RECORDS.holistic!, 'holistic_planning').baseCaseKey,
    );
  });

  it('tolerates broken *_json fields', () => {
    const facets = derivedFacets(
      { id: 'z', query: 'q', tool_chain_json: '{not json', trajectory_prefix_json: 42 },
      'holistic_planning',
    );
    expect(facets).toMatchObject({ referenceSteps: 0, modality: 'text' });
  });
});

describe('strict parsing of the judgement', () => {
  it.each([
    [true, true],
    [false, false],
    // 1 and 0 as the official scorer's bool() reads them (issue 11); other numbers stay unread.
    [1, true],
    [0, false],
    // One rule with the judge reader (issue 20): no word is a boolean, not even "true".
    ['true', undefined],
    [' FALSE ', undefined],
    ['yes', undefined],
    [2, undefined],
    [null, undefined],
  ])('officialBoolean(%j) = %j', (value, expected) => {
    expect(officialBoolean(value)).toBe(expected);
  });

  it.each([
    [0.8, 0.8],
    [0.79, 0.8],
    [1, 1],
    [1.2, null],
    [-0.1, null],
    ['0.8', null],
    [true, null],
  ])('gradeOf(%j) = %j', (value, expected) => {
    expect(gradeOf(value)).toBe(expected);
  });

  it('reads six 0/1 error flags and nothing else', () => {
    expect(errorFlagsOf([0, 1, 0, 0, 1, 0])).toEqual([false, true, false, false, true, false]);
    expect(errorFlagsOf([0, 1, 0])).toEqual([false, false, false, false, false, false]);
    expect(errorFlagsOf([0, 2, 0, 0, 0, 0])).toEqual([false, false, false, false, false, false]);
  });

  it('normalises behaviours', () => {
    expect([
      behaviorOf('Replace'),
      behaviorOf('replacement'),
      behaviorOf('hallucinated'),
      behaviorOf(undefined),
    ]).toEqual(['replace', 'replace', 'other', null]);
  });
});

/** A complete `apb` block as apb run writes it, with `apb` and `apb.prediction` members overridden. */
function apbBlock(
  facets: Record<string, unknown>,
  apb: Record<string, unknown> = {},
  prediction: Record<string, unknown> = {},
) {
  return {
    schema_version: 1,
    status: 'ok',
    judge_kind: 'rules',
    judge_prompt_version: 'rules@1',
    findings: null,
    usage: null,
    latency_ms: null,
    attempts: 1,
    cached: false,
    notes: [],
    ...apb,
    prediction: {
      schema_version: 1,
      status: 'ok',
      repeat: 0,
      fingerprint: 'fp',
      prompt_version: 'p@1',
      parsed: null,
      usage: null,
      latency_ms: null,
      finish_reason: null,
      attempts: 1,
      cached: false,
      facets,
      ...prediction,
    },
  };
}

/** The refinement block of a refined line, with members overridden. */
function refinementBlock(
  overrides: Record<string, unknown>,
  initial: Record<string, unknown> = {},
) {
  return {
    mode: 'self',
    taxonomy: false,
    critic: 'openai:gpt-4o',
    rounds: 1,
    round: 1,
    status: 'ok',
    source_run: { dir: 'runs/a', manifest_sha256: 'abc', fingerprint: 'fp' },
    initial: {
      model_response: '{}',
      status: 'ok',
      is_correct: true,
      grade: 1,
      judge: 'rules',
      judge_status: 'ok',
      judged_in: 'source',
      ...initial,
    },
    critiques: [],
    revisions: [],
    ...overrides,
  };
}

describe('rowFromJudgementLine', () => {
  const official = (judgement: unknown) => ({
    ...RECORDS.holistic,
    tested_model: 'gpt-5',
    model_response: '{}',
    judge_model: 'gemini',
    judgement,
  });

  it('reads an official-harness line', () => {
    const row = rowFromJudgementLine(
      official({ is_correct: 1, grade: 1, error_list: [0, 0, 0, 0, 0, 0] }),
    );
    expect(row).toMatchObject({
      id: 'h-1',
      model: 'gpt-5',
      judge: 'gemini',
      repeat: 0,
      plannerStatus: 'ok',
      judgeStatus: 'ok',
      correct: true,
      grade: 1,
      findings: null,
    });
    expect(row.facets).toMatchObject({ split: 'holistic_planning', modality: 'image' });
  });

  it.each([
    ['a missing is_correct', { grade: 0.4 }],
    ['a non-boolean is_correct', { is_correct: 'yes', grade: 0.4 }],
    ['a string is_correct', { is_correct: 'true', grade: 1 }],
    ['no judgement at all', null],
  ])('makes %s a judge error (never correct, grade null)', (_label, judgement) => {
    expect(rowFromJudgementLine(official(judgement))).toMatchObject({
      judgeStatus: 'judge_error',
      correct: false,
      grade: null,
    });
  });

  it('reads our line: statuses, facets, findings, usage and refinement from apb', () => {
    const facets = derivedFacets(RECORDS.stepWise!, 'step_wise_planning');
    const line = {
      ...RECORDS.stepWise,
      tested_model: 'openai:gpt-4o',
      model_response: '',
      judge_model: 'rules',
      judgement: { is_correct: false, grade: 0, error_list: [0, 0, 0, 0, 0, 0], reasoning: '' },
      apb: apbBlock(
        { ...facets, stage: 'late' },
        {
          findings: { distractorUse: null },
          usage: { inputTokens: 5, outputTokens: 1 },
          refinement: refinementBlock({
            mode: 'critic',
            taxonomy: true,
            critic: 'anthropic:claude-sonnet-4-5',
            rounds: 2,
          }),
        },
        { status: 'parse_error', repeat: 2, parse_error: 'no JSON object found' },
      ),
    };
    const row = rowFromJudgementLine(line);
    expect(row).toMatchObject({
      plannerStatus: 'parse_error',
      judgeStatus: 'ok',
      correct: false,
      grade: 0,
      repeat: 2,
      promptVersion: 'p@1',
      judgePromptVersion: 'rules@1',
    });
    expect(row.facets.stage).toBe('late');
    expect(row.refinement).toMatchObject({
      mode: 'critic',
      taxonomy: true,
      critic: 'anthropic:claude-sonnet-4-5',
      rounds: 2,
      critiques: [],
    });
    expect(row.usage).toEqual({ planner: null, judge: { inputTokens: 5, outputTokens: 1 } });
  });

  it("keeps only the findings the metrics read, and reads a refined line's initial verdict as isCorrect reads a row", () => {
    const line = (initialStatus: string) => ({
      ...RECORDS.stepWise,
      tested_model: 'openai:gpt-4o',
      model_response: '{}',
      judge_model: 'rules',
      judgement: { is_correct: true, grade: 1, error_list: [0, 0, 0, 0, 0, 0], reasoning: '' },
      apb: apbBlock(derivedFacets(RECORDS.stepWise!, 'step_wise_planning'), {
        findings: {
          distractorUse: { names: ['d'], count: 2 },
          refusal: { refused: false, explicit: false, evidence: 'long text' },
          planCost: { predictedSteps: 3, referenceSteps: 2, predictedCost: 7, referenceCost: 5 },
          toolSet: { precision: 1, recall: 1, f1: 1, missing: [], extra: [] },
        },
        refinement: refinementBlock({}, { grade: 0.8, status: initialStatus }),
      }),
    });
    const row = rowFromJudgementLine(line('parse_error'));
    expect(row.findings).toEqual({
      distractorUse: { names: ['d'], count: 2 },
      refusal: { refused: false },
      planCost: { predictedSteps: 3, referenceSteps: 2, predictedCost: 7, referenceCost: 5 },
    });
    // A credited prose first answer is a correct base; a failed planner call never is.
    expect(row.refinement?.initial).toEqual({ correct: true, grade: 0.8 });
    expect(rowFromJudgementLine(line('error')).refinement?.initial).toEqual({
      correct: false,
      grade: 0.8,
    });
  });

  it('gives a failed planner grade 0 and no judge error', () => {
    const facets = derivedFacets(RECORDS.holistic!, 'holistic_planning');
    const line = {
      ...official({ is_correct: false, grade: 0, error_list: [0, 0, 0, 0, 0, 0], reasoning: '' }),
      apb: apbBlock(
        facets,
        {},
        { status: 'error', error: { kind: 'server', message: 'HTTP 500' } },
      ),
    };
    expect(rowFromJudgementLine(line)).toMatchObject({
      plannerStatus: 'error',
      judgeStatus: 'ok',
      correct: false,
      grade: 0,
    });
  });

  it('takes apb.status judge_error over any judgement', () => {
    const line = {
      ...official({ is_correct: true, grade: 1, error_list: [0, 0, 0, 0, 0, 0], reasoning: '' }),
      apb: apbBlock(derivedFacets(RECORDS.holistic!, 'holistic_planning'), {
        status: 'judge_error',
      }),
    };
    expect(rowFromJudgementLine(line)).toMatchObject({
      judgeStatus: 'judge_error',
      correct: false,
      grade: null,
    });
  });

  it('refuses our line when a member breaks the schema, naming the field', () => {
    const facets = derivedFacets(RECORDS.holistic!, 'holistic_planning');
    const good = {
      ...official({ is_correct: true, grade: 1, error_list: [0, 0, 0, 0, 0, 0], reasoning: '' }),
      apb: apbBlock(facets),
    };
    expect(rowFromJudgementLine(good).correct).toBe(true);
    const broken = (apb: Record<string, unknown>, prediction: Record<string, unknown> = {}) => ({
      ...good,
      apb: apbBlock(facets, apb, prediction),
    });
    expect(() => rowFromJudgementLine(broken({ status: 'done' }))).toThrow(/^apb\.status: /);
    expect(() => rowFromJudgementLine(broken({}, { repeat: -1 }))).toThrow(
      /^apb\.prediction\.repeat: /,
    );
    expect(() => rowFromJudgementLine({ ...good, judgement: { is_correct: 'yes' } })).toThrow(
      /^judgement\.is_correct: /,
    );
  });

  it('throws on an unknown split or a missing id', () => {
    expect(() => rowFromJudgementLine({ ...official({}), split: 'all' })).toThrow(/split/);
    expect(() => rowFromJudgementLine({ ...official({}), id: undefined })).toThrow(/id/);
  });
});

describe('readResultRows', () => {
  it('streams rows, reports bad lines with file:line and skips a torn last line', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'apb-rows-')), 'judgements.jsonl');
    const good = JSON.stringify({
      ...RECORDS.holistic,
      tested_model: 'm',
      judge_model: 'j',
      judgement: { is_correct: true, grade: 1 },
    });
    const lines = [
      good,
      '',
      '{"broken',
      '[1, 2]',
      JSON.stringify({ ...JSON.parse(good), split: 'nope' }),
      good,
      '{"id": "torn", "spl',
    ];
    writeFileSync(file, lines.join('\n'));
    const read = await readResultRows(file, { keepLines: true });
    expect(read.rows).toHaveLength(2);
    expect(read.lines).toHaveLength(3);
    expect(read.tornLastLine).toBe(7);
    expect(read.issues.map((issue) => [issue.line, issue.field])).toEqual([
      [3, '(line)'],
      [4, '(line)'],
      [5, 'split'],
    ]);
    expect(read.issues[0]!.file).toBe(file);
  });
});
