/** Table tests of the run-file schemas: a valid value of each, each invalid field, write → read, migrations. */
import { describe, expect, it } from 'vitest';
import {
  checkRunFileValue,
  officialBoolean,
  parseRunFileValue,
  readJudgement,
  RUN_FILES,
  type RunFileId,
} from './index.js';

const usage = { inputTokens: 10, outputTokens: 5 };
const facets = { split: 'holistic_planning', baseCaseKey: 'k', regime: 'Holistic' };
const predictionMeta = {
  schema_version: 1,
  status: 'ok',
  repeat: 0,
  fingerprint: 'fp-1',
  prompt_version: 'holistic@1',
  parsed: { kind: 'plan', plan: 'p', toolChain: [] },
  usage,
  latency_ms: 12,
  finish_reason: 'stop',
  attempts: 1,
  cached: false,
  facets,
};
const dataset = { id: 'c-1', split: 'holistic_planning', query: 'q', tools_json: '[]' };
const prediction = { ...dataset, tested_model: 'm', model_response: '{}', apb: predictionMeta };
const judgement = {
  ...prediction,
  judge_model: 'rules',
  judgement: { is_correct: true, grade: 1, error_list: [0, 0, 0, 0, 0, 0], reasoning: 'ok' },
  apb: {
    schema_version: 1,
    status: 'ok',
    judge_kind: 'rules',
    judge_prompt_version: 'rules@2',
    findings: { schema: { valid: true, issues: [] } },
    usage: null,
    latency_ms: null,
    attempts: 1,
    cached: false,
    notes: [],
    prediction: predictionMeta,
  },
};
const roleUsage = { calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0 };
const execution = {
  schema_version: 1,
  task_id: '0',
  env: 'tau2:retail',
  mode: 'direct',
  model: 'openai:gpt-4o',
  user_model: 'openai:gpt-4o',
  trial: 0,
  reward: 1,
  reward_info: { db: 1, communicate: null, action: null, nl_assertion: null },
  termination: 'user_stop',
  stop_signal: '###STOP###',
  steps: 2,
  tool_errors: 0,
  messages: [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'hello' },
  ],
  usage: { agent: roleUsage, user: roleUsage },
  reward_details: {},
  apb: {
    nl_judge: null,
    agent_prompt_version: 'a@1',
    user_prompt_version: 'u@1',
    planner_prompt_version: null,
    started_at: 't0',
    finished_at: 't1',
  },
};
const batchEvent = { schema_version: 1, event: 'intent', batch_key: 'b1', at: 't' };
const servePlan = {
  schema_version: 1,
  conversation: 'c1',
  mode: 'plan-first',
  model: 'openai:gpt-4o',
  at: 't',
  request: 'book a flight',
  plan: { status: 'ok', text: 'p', parsed: null, usage, cached: false, prompt_version: 'h@1' },
};

/** [file id, a valid value, [member path, bad value, field the error names]...] */
const TABLE: [RunFileId, Record<string, unknown>, [string, unknown, string][]][] = [
  [
    'predictions',
    prediction,
    [
      ['id', 7, 'id'],
      ['tested_model', null, 'tested_model'],
      ['apb.status', 'done', 'apb.status'],
      ['apb.repeat', -1, 'apb.repeat'],
      ['apb.fingerprint', '', 'apb.fingerprint'],
      ['apb.cached', 'no', 'apb.cached'],
      ['apb.finish_reason', 'eof', 'apb.finish_reason'],
      ['apb.usage', { inputTokens: -1, outputTokens: 0 }, 'apb.usage.inputTokens'],
      ['apb.facets', null, 'apb.facets'],
      ['apb.schema_version', 2, 'apb.schema_version'],
    ],
  ],
  [
    'judgements',
    judgement,
    [
      ['judge_model', 3, 'judge_model'],
      ['judgement.is_correct', 'yes', 'judgement.is_correct'],
      ['judgement.grade', 1.5, 'judgement.grade'],
      ['judgement.error_list', [0, 0, 0], 'judgement.error_list'],
      ['judgement.behavior', 'skip', 'judgement.behavior'],
      ['apb.judge_kind', 'human', 'apb.judge_kind'],
      ['apb.notes', 'none', 'apb.notes'],
      ['apb.prediction.status', 'maybe', 'apb.prediction.status'],
    ],
  ],
  [
    'executions',
    execution,
    [
      ['mode', 'chat', 'mode'],
      ['reward', 2, 'reward'],
      ['reward_info.db', 0.5, 'reward_info.db'],
      ['termination', 'crashed', 'termination'],
      ['messages', [{ role: 'system', content: 'x' }], 'messages.0.role'],
      ['usage.agent.calls', -1, 'usage.agent.calls'],
      ['apb.nl_judge', 1, 'apb.nl_judge'],
    ],
  ],
  [
    'batches',
    batchEvent,
    [
      ['event', 'began', 'event'],
      ['batch_key', '', 'batch_key'],
    ],
  ],
  [
    'servePlans',
    servePlan,
    [
      ['mode', 'direct-ish', 'mode'],
      ['plan.status', 'fine', 'plan'],
    ],
  ],
];

function withMember(value: Record<string, unknown>, dotted: string, member: unknown) {
  const copy = structuredClone(value);
  const keys = dotted.split('.');
  let node = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys.at(-1)!] = member;
  return copy;
}

describe.each(TABLE)('RUN_FILES.%s', (id, valid, invalid) => {
  it('reads a valid value back as written, unknown members kept', () => {
    const written = JSON.stringify({ ...valid, extra_from_a_newer_apb: 1 });
    const read = parseRunFileValue(id, JSON.parse(written), { file: 'f.jsonl', line: 1 });
    expect(JSON.stringify(read)).toBe(written);
  });

  it.each(invalid)('refuses %s = %j, naming %s', (member, bad, field) => {
    const value = withMember(valid, member, bad);
    expect(checkRunFileValue(id, value)).toMatchObject({ ok: false, field });
    expect(() => parseRunFileValue(id, value, { file: 'run/x.jsonl', line: 4 })).toThrow(
      new RegExp(`^run/x\\.jsonl:4: ${field.replace(/\./g, '\\.')}: `),
    );
  });
});

describe('migrations', () => {
  it('reads a result line without apb.schema_version as version 0 and brings it to 1', () => {
    const old = structuredClone(judgement) as Record<string, any>;
    delete old.apb.schema_version;
    delete old.apb.prediction.schema_version;
    const read = parseRunFileValue('judgements', old, { file: 'j', line: 1 });
    expect(read.apb.schema_version).toBe(1);
    expect(read.apb.prediction.schema_version).toBe(1);
  });

  it('derives what a version-0 replay line lacks from the line itself', () => {
    const { schema_version, user_model, stop_signal, steps, tool_errors, usage, ...rest } =
      execution;
    void [schema_version, user_model, stop_signal, steps, tool_errors, usage];
    const old = {
      ...rest,
      mode: 'replay',
      messages: [
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 't', arguments: {} }] },
        { role: 'tool', tool_call_id: 'a', name: 't', content: 'err', error: true },
        { role: 'assistant', content: 'done' },
      ],
      apb: { nl_judge: null },
    };
    const read = parseRunFileValue('executions', old, { file: 'e', line: 1 });
    expect(read).toMatchObject({
      schema_version: 1,
      user_model: 'none',
      steps: 2,
      tool_errors: 1,
      usage: { agent: { calls: 0 } },
      apb: { agent_prompt_version: null, started_at: null },
    });
  });

  it('adds schema_version to an exec manifest and a serve-plans line written without one', () => {
    const { schema_version: _, ...oldPlan } = servePlan;
    expect(parseRunFileValue('servePlans', oldPlan, { file: 's', line: 1 }).schema_version).toBe(1);
    expect(RUN_FILES.execManifest.migrate({ kind: 'exec' })).toEqual({
      kind: 'exec',
      schema_version: 1,
    });
  });

  it('names every file of a run directory once per id, each with a version', () => {
    for (const [id, entry] of Object.entries(RUN_FILES)) {
      expect(entry.file, id).toMatch(/\.(jsonl|json)$/);
      expect(entry.version, id).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('the strict boolean rule and the official adapter', () => {
  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['true', undefined],
    ['false', undefined],
    ['yes', undefined],
    ['NO', undefined],
    [2, undefined],
    [null, undefined],
    [undefined, undefined],
  ])('officialBoolean(%j) = %j', (value, expected) => {
    expect(officialBoolean(value)).toBe(expected);
  });

  it.each([
    [
      { is_correct: 1, grade: 0.8, error_list: [0, 0, 0, 0, 1, 0] },
      { isCorrect: true, grade: 0.8 },
    ],
    [
      { is_correct: 'False', grade: '0.4' },
      { isCorrect: null, grade: null, errors: null },
    ],
    [{ category_name: 'Replacement', is_correct: true }, { behavior: 'replace' }],
    [{ category: 4 }, { behavior: 'refuse', isCorrect: null }],
    [{ behavior: 'alter', category: 1 }, { behavior: 'alter' }],
    [null, { isCorrect: null, grade: null, behavior: null, refused: null }],
  ])('reads the official judgement %j', (judgement, expected) => {
    expect(readJudgement(judgement)).toMatchObject(expected);
  });
});

describe('reasoning efforts', () => {
  it("are the provider contract's, so a manifest holds every effort a run may use", async () => {
    const { REASONING_EFFORTS } = await import('../../providers/provider.js');
    const { SamplingSchema } = await import('./common.js');
    for (const effort of REASONING_EFFORTS)
      expect(SamplingSchema.safeParse({ reasoningEffort: effort }).success).toBe(true);
    expect(SamplingSchema.safeParse({ reasoningEffort: 'max' }).success).toBe(false);
  });
});
