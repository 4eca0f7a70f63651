import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { makeJudgeInput } from './judge-input.fixture.js';
import type { Judge, JudgeResult } from './judge.js';
import { createPanelJudge, panelId } from './panel.js';
import type { JudgeOutcome, Verdict } from './verdict.js';

const verdict = (correct: boolean, grade: Verdict['grade'] = correct ? 1 : 0.6): Verdict => ({
  kind: 'verdict',
  correct,
  grade,
  errors: [false, false, false, correct ? false : true, false, false],
  reasoning: correct ? 'fine' : 'E4',
  notes: [],
});

/** A fake judge with a fixed outcome and usage. */
function fakeJudge(
  id: string,
  outcome: JudgeOutcome | Error,
  extra: Partial<JudgeResult> & { kind?: Judge['kind'] } = {},
): Judge & { calls: number } {
  const judge = {
    id,
    kind: extra.kind ?? 'llm',
    version: `${id}@v`,
    calls: 0,
    async judge(): Promise<JudgeResult> {
      judge.calls += 1;
      if (outcome instanceof Error) throw outcome;
      return {
        outcome,
        usage: { inputTokens: 10, outputTokens: 2 },
        latencyMs: 5,
        attempts: 1,
        cached: false,
        promptVersion: `${id}-prompt`,
        ...extra,
      };
    },
  };
  return judge;
}

describe('createPanelJudge', () => {
  it('asks every member, returns the aggregate and every member result', async () => {
    const members = [
      fakeJudge('rules', verdict(true), { kind: 'rules', usage: null, latencyMs: 0, attempts: 0 }),
      fakeJudge('a:x', verdict(false)),
      fakeJudge('b:y', verdict(false, 0.4), { latencyMs: 30 }),
    ];
    const panel = createPanelJudge(members);
    expect(panel).toMatchObject({ id: 'panel(rules+a:x+b:y)', kind: 'llm' });
    expect(panel.version).toMatch(/^panel@[0-9a-f]{10}$/);
    const result = await panel.judge(makeJudgeInput('holistic_planning'));
    expect(members.map((member) => member.calls)).toEqual([1, 1, 1]);
    // 1 of 3 correct → incorrect; grades sorted [0.4, 0.6, 1] → median 0.6; E4 set by 2 of 3.
    expect(result.outcome).toMatchObject({
      kind: 'verdict',
      correct: false,
      grade: 0.6,
      errors: [false, false, false, true, false, false],
    });
    expect(result.members?.map((member) => [member.judge, member.kind, member.version])).toEqual([
      ['rules', 'rules', 'rules@v'],
      ['a:x', 'llm', 'a:x@v'],
      ['b:y', 'llm', 'b:y@v'],
    ]);
    expect(result.members?.[1]?.result.outcome).toMatchObject({ correct: false });
    // usage sums the calling members; latency is the slowest (members run at once); attempts add up.
    expect(result).toMatchObject({
      usage: { inputTokens: 20, outputTokens: 4 },
      latencyMs: 30,
      attempts: 2,
      cached: false,
    });
    expect(result.promptVersion).toMatch(/^panel@/);
  });

  it('is a rules panel when no member is an LLM; cached only when every calling member was', async () => {
    const rulesOnly = createPanelJudge([
      fakeJudge('r1', verdict(true), { kind: 'rules' }),
      fakeJudge('r2', verdict(true), { kind: 'rules' }),
    ]);
    expect(rulesOnly.kind).toBe('rules');
    expect((await rulesOnly.judge(makeJudgeInput('holistic_planning'))).cached).toBe(false);
    const hits = createPanelJudge([
      fakeJudge('rules', verdict(true), { kind: 'rules', usage: null }),
      fakeJudge('a:x', verdict(true), { cached: true }),
      fakeJudge('b:y', verdict(true), { cached: true }),
    ]);
    const result = await hits.judge(makeJudgeInput('holistic_planning'));
    expect(result).toMatchObject({ cached: true, usage: null });
  });

  it('records an Unjudged member and aggregates the rest; all Unjudged stays Unjudged', async () => {
    const failed: JudgeOutcome = {
      kind: 'unjudged',
      reason: 'judge-parse-failure',
      message: 'no JSON',
    };
    const result = await createPanelJudge([
      fakeJudge('a:x', failed),
      fakeJudge('b:y', verdict(true)),
    ]).judge(makeJudgeInput('holistic_planning'));
    expect(result.outcome).toMatchObject({ kind: 'verdict', correct: true });
    expect(result.members?.[0]?.result.outcome).toEqual(failed);
    const none = await createPanelJudge([fakeJudge('a:x', failed), fakeJudge('b:y', failed)]).judge(
      makeJudgeInput('holistic_planning'),
    );
    expect(none.outcome).toMatchObject({ kind: 'unjudged', reason: 'judge-parse-failure' });
  });

  it("propagates a member's fatal error", async () => {
    const auth = new ProviderError({
      provider: 'a:x',
      message: 'bad key',
      kind: 'auth',
      retryable: false,
      status: 401,
    });
    await expect(
      createPanelJudge([fakeJudge('a:x', auth), fakeJudge('b:y', verdict(true))]).judge(
        makeJudgeInput('holistic_planning'),
      ),
    ).rejects.toBe(auth);
  });

  it('needs two distinct members; the version changes with any member version', () => {
    expect(() => createPanelJudge([fakeJudge('a:x', verdict(true))])).toThrow(/at least two/);
    expect(() =>
      createPanelJudge([fakeJudge('a:x', verdict(true)), fakeJudge('a:x', verdict(true))]),
    ).toThrow(/twice/);
    const one = createPanelJudge([
      fakeJudge('a:x', verdict(true)),
      fakeJudge('b:y', verdict(true)),
    ]);
    const other = createPanelJudge([
      fakeJudge('a:x', verdict(true)),
      { ...fakeJudge('b:y', verdict(true)), version: 'b:y@w' },
    ]);
    expect(one.version).not.toBe(other.version);
    expect(panelId(['rules', 'google:gemini-3-pro-preview'])).toBe(
      'panel(rules+google:gemini-3-pro-preview)',
    );
  });
});
