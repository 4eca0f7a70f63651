import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import {
  partsOf,
  type Provider,
  type ProviderRequest,
  type ProviderResult,
} from '../providers/provider.js';
import { makeJudgeInput } from './judge-input.fixture.js';
import { createLlmJudge, reaskMessage } from './llm-judge.js';

/** A scripted provider: each call returns the next text (or throws the next error) and records the request. */
class ScriptedProvider implements Provider {
  readonly id = 'fake:judge';
  readonly requests: ProviderRequest[] = [];
  constructor(private readonly script: (string | Error)[]) {}
  async generate(request: ProviderRequest): Promise<ProviderResult> {
    this.requests.push(structuredClone(request));
    const next = this.script.shift();
    if (next === undefined) throw new Error('script exhausted');
    if (next instanceof Error) throw next;
    return {
      text: next,
      usage: { inputTokens: 100, outputTokens: 10 },
      latencyMs: 5,
      finishReason: 'stop',
      attempts: 1,
      cached: false,
    };
  }
}

const GOOD =
  '{"reasoning": "sound", "errors": {"E1": false, "E2": false, "E3": false, "E4": false, "E5": false, "E6": false}, "is_correct": true, "grade": 1}';
const providerError = (kind: ProviderError['kind'], status?: number) =>
  new ProviderError({
    provider: 'fake:judge',
    message: 'boom',
    kind,
    retryable: false,
    ...(status === undefined ? {} : { status }),
  });

describe('createLlmJudge', () => {
  it('judges end to end: JSON mode, temperature 0, role judge, the judge prompt as messages', async () => {
    const provider = new ScriptedProvider([GOOD]);
    const judge = createLlmJudge({ provider, protocol: 'paper', blind: false });
    const result = await judge.judge(makeJudgeInput('holistic_planning'));
    expect(judge).toMatchObject({ id: 'fake:judge', kind: 'llm' });
    expect(judge.version).toMatch(/^judge-paper@/);
    expect(result).toMatchObject({
      outcome: { kind: 'verdict', correct: true, grade: 1 },
      attempts: 1,
      cached: false,
      latencyMs: 5,
      usage: { inputTokens: 100, outputTokens: 10 },
    });
    const request = provider.requests[0]!;
    expect(request).toMatchObject({
      json: true,
      sampling: { temperature: 0 },
      role: 'judge',
      repeat: 0,
      promptVersion: result.promptVersion,
    });
    expect(request.messages.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('re-asks once after an unreadable reply, with the reply and a corrective message', async () => {
    const provider = new ScriptedProvider(['The plan is fine.', GOOD]);
    const result = await createLlmJudge({ provider, protocol: 'paper', blind: false }).judge(
      makeJudgeInput('holistic_planning'),
    );
    expect(result.attempts).toBe(2);
    expect(result.outcome).toMatchObject({ kind: 'verdict', correct: true });
    expect(result.outcome.kind === 'verdict' && result.outcome.notes.join()).toContain(
      'readable on ask 2 after: judge-parse-failure',
    );
    expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 20 });
    const second = provider.requests[1]!.messages;
    expect(second.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const last = partsOf(second[3]!)[0]!;
    expect(last.type === 'text' && last.text).toBe(
      reaskMessage({
        kind: 'unjudged',
        reason: 'judge-parse-failure',
        message: 'the reply holds no JSON object',
      }),
    );
  });

  it('stays Unjudged when every ask is unreadable, never a pass', async () => {
    const provider = new ScriptedProvider([
      '{"is_correct": "maybe"}',
      '{"is_correct": tru',
      'unused',
    ]);
    const result = await createLlmJudge({
      provider,
      protocol: 'paper',
      blind: false,
      maxReasks: 1,
    }).judge(makeJudgeInput('holistic_planning'));
    expect(result.attempts).toBe(2);
    expect(result.outcome).toMatchObject({
      kind: 'unjudged',
      reason: 'judge-parse-failure',
      rawText: '{"is_correct": tru',
    });
    expect(provider.requests).toHaveLength(2);
  });

  it('with maxReasks 0 asks once', async () => {
    const provider = new ScriptedProvider(['', GOOD]);
    const result = await createLlmJudge({
      provider,
      protocol: 'paper',
      blind: false,
      maxReasks: 0,
    }).judge(makeJudgeInput('holistic_planning'));
    expect(result).toMatchObject({
      attempts: 1,
      outcome: { kind: 'unjudged', reason: 'judge-parse-failure' },
    });
  });

  it('re-asks after an inconsistent verdict', async () => {
    const inconsistent = GOOD.replace('"is_correct": true', '"is_correct": false').replace(
      '"grade": 1',
      '"grade": 0.8',
    );
    const result = await createLlmJudge({
      provider: new ScriptedProvider([inconsistent, GOOD]),
      protocol: 'paper',
      blind: false,
    }).judge(makeJudgeInput('step_wise_planning'));
    expect(result).toMatchObject({ attempts: 2, outcome: { kind: 'verdict', correct: true } });
  });

  it('turns a provider failure into Unjudged judge-call-failed', async () => {
    const result = await createLlmJudge({
      provider: new ScriptedProvider([providerError('server', 503)]),
      protocol: 'paper',
      blind: false,
    }).judge(makeJudgeInput('holistic_planning'));
    expect(result.outcome).toMatchObject({
      kind: 'unjudged',
      reason: 'judge-call-failed',
      message: 'server 503: boom',
    });
    expect(result.attempts).toBe(1);
  });

  it('propagates an auth failure, a cancellation and any non-provider error', async () => {
    const judgeWith = (error: Error) =>
      createLlmJudge({
        provider: new ScriptedProvider([error]),
        protocol: 'paper',
        blind: false,
      }).judge(makeJudgeInput('holistic_planning'));
    await expect(judgeWith(providerError('auth', 401))).rejects.toMatchObject({ kind: 'auth' });
    await expect(judgeWith(providerError('aborted'))).rejects.toMatchObject({ kind: 'aborted' });
    await expect(judgeWith(new TypeError('bug'))).rejects.toThrow('bug');
  });

  it('derives tool-broken correctness from the behaviour and unsolvable correctness from the refusal', async () => {
    const broken = await createLlmJudge({
      provider: new ScriptedProvider(['{"reasoning": "calls it again", "behavior": "retry"}']),
      protocol: 'paper',
      blind: false,
    }).judge(makeJudgeInput('step_wise_tool_broken'));
    expect(broken.outcome).toMatchObject({ kind: 'verdict', behavior: 'retry', correct: false });
    const unsolvable = await createLlmJudge({
      provider: new ScriptedProvider(['{"reasoning": "asks for the photo", "refused": true}']),
      protocol: 'paper',
      blind: false,
    }).judge(makeJudgeInput('holistic_unsolvable'));
    expect(unsolvable.outcome).toMatchObject({ kind: 'verdict', refused: true, correct: true });
  });

  it('reads the official keys under the official protocol', async () => {
    const provider = new ScriptedProvider([
      '{"is_correct": true, "grade": 1.0, "error_list": [0,0,0,0,0,0], "reasoning": "ok"}',
    ]);
    const result = await createLlmJudge({ provider, protocol: 'official', blind: false }).judge(
      makeJudgeInput('step_wise_tool_broken'),
    );
    expect(result.outcome).toMatchObject({ kind: 'verdict', correct: true });
    expect(result.promptVersion).toMatch(/^judge-official-step_wise_tool_broken@/);
  });

  it('rejects a negative re-ask budget', () => {
    expect(() =>
      createLlmJudge({
        provider: new ScriptedProvider([]),
        protocol: 'paper',
        blind: false,
        maxReasks: -1,
      }),
    ).toThrow(RangeError);
  });
});
