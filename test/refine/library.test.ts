/**
 * The library example of docs/refine.md ("From code"), run as written against the scripted fake
 * over real HTTP: the public entry's exports, a model's first answer, a critic of your own
 * (a function), one refinement round.
 */
import { describe, expect, it } from 'vitest';
import {
  buildProviderStack,
  DEFAULT_PROMPT_OPTIONS,
  functionCritic,
  readAllCases,
  refineAnswer,
  SAMPLE_DATASET_DIR,
  SETTINGS,
} from '../../src/index.js';
import { kindOf, MODELS, useRefineServer } from './script.js';

const fake = useRefineServer();

describe('refineAnswer from code (docs/refine.md)', () => {
  it('refines a first answer with a function critic', async () => {
    const { cases } = await readAllCases(SAMPLE_DATASET_DIR);
    const item = cases.find((c) => c.split === 'holistic_planning')!;
    const prompt = SETTINGS[item.split].buildPrompt(item.input, DEFAULT_PROMPT_OPTIONS);
    const model = buildProviderStack(`openai-compatible:${MODELS.planner}`, {
      baseUrl: fake.server.baseUrl('openai'),
      env: {},
    });
    const first = await model.generate({
      messages: prompt.messages,
      promptVersion: prompt.promptVersion,
      json: false,
      sampling: {},
      repeat: 0,
      role: 'planner',
    });

    const known = new Set(item.input.tools.map((tool) => tool.name));
    const critic = functionCritic('tool-name-check', ({ answer }) => {
      const unknown = [...answer.matchAll(/"name"\s*:\s*"([^"]+)"/g)]
        .map((m) => m[1]!)
        .filter((name) => !known.has(name));
      return unknown.length
        ? `These tools do not exist: ${unknown.join(', ')}. Use only listed tools. METHOD=critic+`
        : 'Every tool exists; keep the plan unless something else is wrong. METHOD=critic+';
    });
    const outcome = await refineAnswer({
      split: item.split,
      input: item.input,
      prompt,
      initialAnswer: first.text,
      reviser: model,
      critic,
      rounds: 1,
    });

    expect(outcome).toMatchObject({
      status: 'ok',
      mode: 'critic',
      critic: 'tool-name-check',
      parsed: { kind: 'plan' },
    });
    expect(outcome.rounds[0]!.critique.text).toMatch(/^Every tool exists/);
    expect(outcome.usage.planner.calls).toBe(1);
    // The function critic sent nothing; the revision went over HTTP.
    expect(fake.server.requests.map(kindOf)).toEqual(['planner', 'revision']);
  });
});
