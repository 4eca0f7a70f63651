import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JudgementLine, PredictionLine } from './records.js';
import { createJsonlStore } from '../rundir/jsonl-store.js';
import { lineText, resultLineSchema } from './results-store.js';

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

describe('the result stores (rundir/jsonl-store.ts over resultLineSchema)', () => {
  it('returns what was appended, in order, through the results schema', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-store-'));
    const predictions = createJsonlStore(
      path.join(dir, 'predictions.jsonl'),
      resultLineSchema('predictions'),
    );
    const judgements = createJsonlStore(
      path.join(dir, 'judgements.jsonl'),
      resultLineSchema('judgements'),
    );
    predictions.append(prediction('a'));
    predictions.append(prediction('b'));
    judgements.append(judgement('a'));
    expect((await collect(predictions.read())).map((line) => line.id)).toEqual(['a', 'b']);
    expect(await collect(judgements.read())).toEqual([judgement('a')]);
    predictions.close();
    judgements.close();
  });

  it('refuses a line the schema rejects, naming the file and line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-store-'));
    const file = path.join(dir, 'judgements.jsonl');
    appendFileSync(file, `${JSON.stringify(judgement('a'))}\n${JSON.stringify({ id: 'b' })}\n`);
    const store = createJsonlStore(file, resultLineSchema('judgements'));
    await expect(collect(store.read())).rejects.toThrow(/judgements\.jsonl:2/);
    store.close();
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
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
