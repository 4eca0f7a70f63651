import { beforeAll, describe, expect, it } from 'vitest';
import type { Case, SplitName } from '../dataset/case.js';
import { readAllCases, SAMPLE_DATASET_DIR } from '../dataset/read-cases.js';
import { ProviderError } from '../errors.js';
import { FakeProvider } from '../providers/fake-provider.js';
import type { ProviderRequest } from '../providers/provider.js';
import { SETTINGS } from '../settings/index.js';
import { DEFAULT_PROMPT_OPTIONS, promptText, type Prompt } from '../settings/prompt.js';
import { functionCritic, type CritiqueRequest } from './critic.js';
import { HOLISTIC_TAXONOMY, STEP_WISE_TAXONOMY, TAXONOMY_CAUTIONS } from './prompts.js';
import type { RefineStep } from './records.js';
import { refineAnswer, type RefineRequest } from './refine-answer.js';

let cases: Case[] = [];
beforeAll(async () => {
  cases = (await readAllCases(SAMPLE_DATASET_DIR)).cases;
});

const PLAN = JSON.stringify({
  plan: '1. search\n2. book',
  tool_chain: [
    { name: 'search_flights', parameter_description: { origin: 'LIS' }, reason: 'find it' },
  ],
});
const STEPS = JSON.stringify({
  predicted_steps: [{ thought: 'next', tool: 'search_flights', arguments: { origin: 'LIS' } }],
});

function caseOf(split: SplitName, withImage = false): Case {
  const found = cases.find(
    (item) =>
      item.split === split &&
      (!withImage || item.input.files.some((file) => file.kind === 'image')),
  );
  if (!found) throw new Error(`no sample case of ${split}`);
  return found;
}

function request(
  caseItem: Case,
  extra: Partial<RefineRequest> & Pick<RefineRequest, 'reviser' | 'critic'>,
): RefineRequest {
  const prompt = SETTINGS[caseItem.split].buildPrompt(caseItem.input, DEFAULT_PROMPT_OPTIONS);
  return {
    split: caseItem.split,
    input: caseItem.input,
    prompt,
    initialAnswer: 'INITIAL-ANSWER-TEXT',
    ...extra,
  };
}

// Refinement requests carry prompt messages only (no tool turns), hence the narrowing cast.
const textOf = (sent: ProviderRequest) =>
  promptText({ messages: sent.messages as Prompt['messages'], promptVersion: sent.promptVersion });
const serverError = () => ({
  error: new ProviderError({
    provider: 'fake',
    kind: 'server',
    retryable: true,
    status: 503,
    message: 'fake 503',
  }),
});

describe('refineAnswer', () => {
  it('self-refinement: the tested model critiques its answer, then revises it in the setting format', async () => {
    const model = new FakeProvider({
      script: [
        {
          text: 'Step 2 books before checking the fare rules.',
          usage: { inputTokens: 100, outputTokens: 20 },
        },
        { text: PLAN, usage: { inputTokens: 150, outputTokens: 40 } },
      ],
    });
    const caseItem = caseOf('holistic_planning', true);
    const outcome = await refineAnswer(
      request(caseItem, { reviser: model, critic: model, sampling: { temperature: 0.2 } }),
    );
    expect(outcome).toMatchObject({
      status: 'ok',
      mode: 'self',
      taxonomy: true,
      critic: 'fake:model',
      text: PLAN,
      parsed: { kind: 'plan' },
    });
    expect(outcome.usage).toEqual({
      critic: { calls: 1, cached_calls: 0, input_tokens: 100, output_tokens: 20 },
      planner: { calls: 1, cached_calls: 0, input_tokens: 150, output_tokens: 40 },
    });
    const [critique, revision] = model.requests;
    expect(critique).toMatchObject({ role: 'critic', json: false, sampling: { temperature: 0 } });
    expect(textOf(critique!)).toContain('INITIAL-ANSWER-TEXT');
    expect(textOf(critique!)).toContain('the answer you wrote');
    expect(textOf(critique!)).toContain('Data-access violation');
    // The critic sees the planner's prompt exactly, images included.
    const prompt = SETTINGS[caseItem.split].buildPrompt(caseItem.input, DEFAULT_PROMPT_OPTIONS);
    const images = (sent: { messages: ProviderRequest['messages'] }) =>
      (sent.messages as Prompt['messages']).flatMap((message) =>
        message.parts.filter((part) => part.type === 'image').map((part) => part.file.sha256),
      );
    expect(images(critique!)).toEqual(images(prompt));
    expect(images(critique!).length).toBeGreaterThan(0);
    for (const message of prompt.messages)
      for (const part of message.parts)
        if (part.type === 'text') expect(textOf(critique!)).toContain(part.text);
    // The revision is the planner's own conversation: its prompt, its answer, then the critique.
    expect(revision).toMatchObject({ role: 'planner', sampling: { temperature: 0.2 } });
    expect(revision!.messages.slice(0, prompt.messages.length)).toEqual(prompt.messages);
    expect(revision!.messages.at(-2)).toEqual({
      role: 'assistant',
      parts: [{ type: 'text', text: 'INITIAL-ANSWER-TEXT' }],
    });
    expect(textOf(revision!)).toContain('Step 2 books before checking the fare rules.');
  });

  it('critic-guided refinement with a function critic, which gets what the planner saw and the answer', async () => {
    const seen: CritiqueRequest[] = [];
    const critic = functionCritic('my-verifier', (critiqueRequest) => {
      seen.push(critiqueRequest);
      return 'Looks right; keep it.';
    });
    const model = new FakeProvider({ script: [{ text: STEPS }] });
    const caseItem = caseOf('step_wise_planning');
    const outcome = await refineAnswer(
      request(caseItem, { reviser: model, critic, taxonomy: false }),
    );
    expect(outcome).toMatchObject({
      status: 'ok',
      mode: 'critic',
      taxonomy: false,
      critic: 'my-verifier',
      parsed: { kind: 'steps' },
    });
    expect(outcome.usage.critic).toEqual({
      calls: 1,
      cached_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      answer: 'INITIAL-ANSWER-TEXT',
      split: 'step_wise_planning',
      round: 1,
      mode: 'critic',
      taxonomy: false,
      input: caseItem.input,
    });
    expect(Object.keys(seen[0]!).sort()).toEqual([
      'answer',
      'input',
      'mode',
      'plannerPrompt',
      'profile',
      'prompt',
      'repeat',
      'round',
      'split',
      'taxonomy',
    ]);
    const critiqueText = promptText(seen[0]!.prompt);
    expect(critiqueText).toContain('best possible action to take next');
    expect(critiqueText).not.toContain('E1 goal misalignment');
    expect(critiqueText).toContain("the planner's answer");
  });

  it("uses each regime's taxonomy and only the notes the planner prompt itself shows", async () => {
    const critiqueOf = async (split: SplitName, taxonomy = true, allowRefusal = false) => {
      const seen: string[] = [];
      const critic = functionCritic(
        'c',
        (critiqueRequest) => (seen.push(promptText(critiqueRequest.prompt)), 'fine'),
      );
      await refineAnswer(
        request(caseOf(split), {
          reviser: new FakeProvider({ fallback: { text: PLAN } }),
          critic,
          taxonomy,
          allowRefusal,
        }),
      );
      return seen[0]!;
    };
    const holistic = await critiqueOf('holistic_planning');
    expect(holistic).toContain(HOLISTIC_TAXONOMY.split('\n')[1]!);
    expect(holistic).toContain(TAXONOMY_CAUTIONS.split('\n')[1]!);
    expect(holistic).not.toMatch(/REJECT|cost per call/);
    // Distractors are never announced: the extraneous split's critique instruction is the holistic one.
    const instructionOf = (text: string) => text.slice(text.lastIndexOf('=== END OF ANSWER'));
    expect(instructionOf(await critiqueOf('holistic_tool_extraneous'))).toBe(
      instructionOf(holistic),
    );
    expect(await critiqueOf('holistic_unsolvable')).toContain('allowed to answer REJECT');
    expect(await critiqueOf('holistic_planning', true, true)).toContain('allowed to answer REJECT');
    expect(await critiqueOf('holistic_efficiency')).toContain('cost per call');
    const stepWise = await critiqueOf('step_wise_tool_broken');
    expect(stepWise).toContain(STEP_WISE_TAXONOMY.split('\n')[2]!);
    expect(stepWise).not.toContain('Data-access violation');
    const generalHolistic = await critiqueOf('holistic_planning', false);
    // Without the metric (legacy refinement_without_judge): the critic is asked for issues or better
    // alternatives and is never told that a correct answer should stay.
    expect(generalHolistic).toContain('best possible way to accomplish the request');
    expect(generalHolistic).toContain('potential issues or better alternatives');
    expect(instructionOf(generalHolistic)).not.toMatch(
      /E1 goal|Warnings|endorse|keep|stay|over-correct/i,
    );
    const generalStepWise = await critiqueOf('step_wise_planning', false);
    expect(generalStepWise).toContain('best possible action to take next');
    expect(instructionOf(generalStepWise)).not.toMatch(/endorse|keep|stay|over-correct/i);
    // With it: the review steps (alternatives; keep, modify or change) and the three warnings.
    expect(holistic).toContain('Consider whether there are better alternatives.');
    expect(holistic).toContain('kept, modified or completely changed');
    expect(holistic).toContain(
      'Do not over-correct: if the answer is logical and valid, endorse it',
    );
    const multi = cases.find(
      (item) => item.split === 'step_wise_planning' && (item.input.horizon ?? 1) > 1,
    );
    expect(multi).toBeDefined();
    const seen: string[] = [];
    await refineAnswer(
      request(multi!, {
        reviser: new FakeProvider({ fallback: { text: STEPS } }),
        critic: functionCritic('c', (r) => (seen.push(promptText(r.prompt)), 'ok')),
      }),
    );
    expect(seen[0]).toContain('placeholder for a value an earlier action will return');
  });

  it('rounds: each round critiques the latest revision, and the last revision is the refined answer', async () => {
    const model = new FakeProvider({
      script: [
        { text: 'critique one' },
        { text: 'REVISION-ONE' },
        { text: 'critique two' },
        { text: PLAN },
      ],
    });
    const outcome = await refineAnswer(
      request(caseOf('holistic_planning'), { reviser: model, critic: model, rounds: 2 }),
    );
    expect(outcome.status).toBe('ok');
    expect(
      outcome.rounds.map((round) => [round.round, round.critique.text, round.revision?.status]),
    ).toEqual([
      [1, 'critique one', 'parse_error'],
      [2, 'critique two', 'ok'],
    ]);
    expect(textOf(model.requests[2]!)).toContain('REVISION-ONE');
    expect(textOf(model.requests[2]!)).not.toContain('INITIAL-ANSWER-TEXT');
    expect(model.requests[3]!.messages.at(-2)).toEqual({
      role: 'assistant',
      parts: [{ type: 'text', text: 'REVISION-ONE' }],
    });
    expect(outcome.usage.critic.calls).toBe(2);
    expect(outcome.usage.planner.calls).toBe(2);
  });

  it('records a failed critique, an empty critique, a failed revision and an unreadable revision as such', async () => {
    const caseItem = caseOf('holistic_planning');
    const failedCritique = new FakeProvider({ script: [serverError()] });
    expect(
      await refineAnswer(request(caseItem, { reviser: failedCritique, critic: failedCritique })),
    ).toMatchObject({
      status: 'critique_failed',
      text: null,
      parsed: null,
      rounds: [
        { critique: { status: 'error', error: { kind: 'server', status: 503 } }, revision: null },
      ],
    });
    expect(failedCritique.requests).toHaveLength(1);
    const emptyCritique = new FakeProvider({ script: [{ text: '  \n' }] });
    expect(
      await refineAnswer(request(caseItem, { reviser: emptyCritique, critic: emptyCritique })),
    ).toMatchObject({
      status: 'critique_unreadable',
      text: null,
      rounds: [{ critique: { status: 'unreadable' } }],
    });
    expect(emptyCritique.requests).toHaveLength(1);
    // A critique that is only thinking (closed, or cut off inside it) is no critique either.
    for (const thinking of ['<think>The plan looks fine.</think>\n', '<thinking>Step 2 is']) {
      const thinker = new FakeProvider({ script: [{ text: thinking }] });
      expect(
        await refineAnswer(request(caseItem, { reviser: thinker, critic: thinker })),
      ).toMatchObject({
        status: 'critique_unreadable',
        rounds: [{ critique: { status: 'unreadable' } }],
      });
      expect(thinker.requests).toHaveLength(1);
    }
    const failedRevision = new FakeProvider({ script: [{ text: 'fix step 2' }, serverError()] });
    expect(
      await refineAnswer(request(caseItem, { reviser: failedRevision, critic: failedRevision })),
    ).toMatchObject({
      status: 'revision_failed',
      text: null,
      parsed: null,
      rounds: [{ critique: { status: 'ok' }, revision: { status: 'error', text: '' } }],
    });
    const prose = new FakeProvider({
      script: [{ text: 'fix step 2' }, { text: 'I would search and then book.' }],
    });
    expect(await refineAnswer(request(caseItem, { reviser: prose, critic: prose }))).toMatchObject({
      status: 'parse_error',
      text: 'I would search and then book.',
      parsed: { kind: 'parse_error' },
    });
  });

  it('resumes: finished steps are reused and not sent again; a failed one is sent again; onStep sees only new finished steps', async () => {
    const caseItem = caseOf('holistic_planning');
    const steps: RefineStep[] = [];
    const first = new FakeProvider({ script: [{ text: 'critique one' }, serverError()] });
    const failed = await refineAnswer(
      request(caseItem, { reviser: first, critic: first, onStep: (step) => void steps.push(step) }),
    );
    expect(failed.status).toBe('revision_failed');
    expect(steps.map((step) => step.kind)).toEqual(['critique']);
    const second = new FakeProvider({ script: [{ text: PLAN }] });
    const later: RefineStep[] = [];
    const resumed = await refineAnswer(
      request(caseItem, {
        reviser: second,
        critic: second,
        done: [...steps, { round: 1, kind: 'revision', record: failed.rounds[0]!.revision! }],
        onStep: (step) => void later.push(step),
      }),
    );
    expect(resumed).toMatchObject({
      status: 'ok',
      text: PLAN,
      rounds: [{ critique: { text: 'critique one' } }],
    });
    expect(second.requests.map((sent) => sent.role)).toEqual(['planner']);
    expect(later.map((step) => step.kind)).toEqual(['revision']);
    expect(resumed.usage.critic.calls).toBe(1);
  });

  it('lets a rejected key or an abort stop the caller', async () => {
    const caseItem = caseOf('holistic_planning');
    const auth = new FakeProvider({
      script: [
        {
          error: new ProviderError({
            provider: 'fake',
            kind: 'auth',
            retryable: false,
            status: 401,
            message: 'bad key',
          }),
        },
      ],
    });
    await expect(refineAnswer(request(caseItem, { reviser: auth, critic: auth }))).rejects.toThrow(
      'bad key',
    );
    const controller = new AbortController();
    controller.abort();
    const slow = new FakeProvider({ fallback: { text: 'x' }, delayMs: 5 });
    await expect(
      refineAnswer(request(caseItem, { reviser: slow, critic: slow }), controller.signal),
    ).rejects.toMatchObject({ kind: 'aborted' });
    await expect(
      refineAnswer(request(caseItem, { reviser: slow, critic: slow, rounds: 0 })),
    ).rejects.toThrow(RangeError);
  });
});
