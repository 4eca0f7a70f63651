import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JudgementLine, PredictionLine } from './records.js';
import {
  JsonlResultsStore,
  MemoryResultsStore,
  lineText,
  type ResultsStore,
} from './results-store.js';

// Complete lines: the JSONL store reads every line back through its schema (rundir/schemas/).
const meta = (id: string): PredictionLine['apb'] => ({
  schema_version: 1,
  status: 'ok',
  repeat: 0,
  fingerprint: id,
  prompt_version: 'p@1',
  parsed: null,
  usage: null,
  latency_ms: null,
  finish_reason: null,
  attempts: 1,
  cached: false,
  facets: { split: 'holistic_planning', baseCaseKey: id } as PredictionLine['apb']['facets'],
});
const prediction = (id: string): PredictionLine => ({
  id,
  split: 'holistic_planning',
  tested_model: 'm',
  model_response: 'x',
  apb: meta(id),
});
const judgement = (id: string): JudgementLine => ({
  ...prediction(id),
  judge_model: 'rules',
  judgement: { is_correct: true, grade: 1, error_list: [0, 0, 0, 0, 0, 0], reasoning: '' },
  apb: {
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
    prediction: meta(id),
  },
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const implementations: [string, () => ResultsStore][] = [
  [
    'JsonlResultsStore',
    () => new JsonlResultsStore(mkdtempSync(path.join(tmpdir(), 'apb-store-'))),
  ],
  ['MemoryResultsStore', () => new MemoryResultsStore()],
];

describe.each(implementations)('ResultsStore contract: %s', (_name, make) => {
  it('returns what was appended, in order, and keeps the two streams apart', async () => {
    const store = make();
    store.appendPrediction(prediction('a'));
    store.appendPrediction(prediction('b'));
    store.appendJudgement(judgement('a'));
    expect((await collect(store.readPredictions())).map((line) => line.id)).toEqual(['a', 'b']);
    expect((await collect(store.readJudgements())).map((line) => line.id)).toEqual(['a']);
    expect(store.tornLinesDropped).toBe(0);
    store.close();
  });

  it('stores copies: later mutation of an appended line does not change it', async () => {
    const store = make();
    const line = prediction('a');
    store.appendPrediction(line);
    line.id = 'changed';
    expect((await collect(store.readPredictions()))[0]!.id).toBe('a');
    store.close();
  });
});

describe('JsonlResultsStore after a crash', () => {
  it('drops a torn last line on open and appends after the last complete line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-store-'));
    const first = new JsonlResultsStore(dir);
    first.appendJudgement(judgement('a'));
    first.close();
    appendFileSync(path.join(dir, 'judgements.jsonl'), '{"id": "b", "judge_mo');
    const second = new JsonlResultsStore(dir);
    expect(second.tornLinesDropped).toBe(1);
    second.appendJudgement(judgement('c'));
    second.close();
    const text = readFileSync(path.join(dir, 'judgements.jsonl'), 'utf8');
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual(['a', 'c']);
  });

  it('treats a file that is one torn line as empty', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-store-'));
    appendFileSync(path.join(dir, 'predictions.jsonl'), '{"id": "half');
    const store = new JsonlResultsStore(dir);
    expect(store.tornLinesDropped).toBe(1);
    expect(await collect(store.readPredictions())).toEqual([]);
    store.close();
  });
});

describe('lineText', () => {
  const recordText =
    '{ "id": "a", "split": "holistic_planning", "tools_json": "[{\\"name\\": \\"x\\"}]", "files": [] }';
  const record = JSON.parse(recordText) as Record<string, unknown>;

  it('reuses the record text and parses to exactly what JSON.stringify would give', () => {
    const line = {
      ...record,
      id: 'a',
      split: 'holistic_planning',
      tested_model: 'm',
      model_response: '}{"',
      apb: { status: 'ok' },
    };
    const text = lineText(line, { record, text: recordText });
    expect(text.startsWith('{ "id": "a"')).toBe(true);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(line)));
  });

  it('falls back to JSON.stringify when a dataset field was changed or no source is given', () => {
    const changed = { ...record, id: 'b', tested_model: 'm' };
    expect(lineText(changed, { record, text: recordText })).toBe(JSON.stringify(changed));
    expect(lineText({ ...record, files: [] }, { record, text: recordText })).toBe(
      JSON.stringify({ ...record, files: [] }),
    );
    expect(lineText({ a: 1 })).toBe('{"a":1}');
  });
});
