import { describe, expect, it } from 'vitest';
import type { CaseFile, CaseInput } from '../dataset/case.js';
import { SETTINGS } from './index.js';
import { DEFAULT_PROMPT_OPTIONS, promptText } from './prompt.js';

const image: CaseFile = {
  path: 'assets/start.png',
  absolutePath: '/x/assets/start.png',
  kind: 'image',
  mimeType: 'image/png',
  label: 'start_screenshot',
  sha256: 'a',
  bytes: 10,
};
const longText: CaseFile = {
  path: 'assets/policy.md',
  absolutePath: '/x/assets/policy.md',
  kind: 'text',
  mimeType: 'text/markdown',
  label: null,
  sha256: 'b',
  bytes: 50_000,
  text: 'x'.repeat(50_000),
};

const input = (overrides: Partial<CaseInput> = {}): CaseInput => ({
  regime: 'Holistic',
  query: 'Archive every invoice older than 2025.',
  systemPrompt: 'You work for ACME finance.',
  tools: [
    {
      name: 'list_invoices',
      description: 'List invoices',
      parameters: { type: 'object', properties: {} },
      cost: 2,
    },
  ],
  files: [],
  trajectoryPrefix: [],
  horizon: null,
  ...overrides,
});

describe('planner prompts', () => {
  it('send images as image parts after a caption, and cap text attachments with a visible marker', () => {
    const prompt = SETTINGS.holistic_planning.buildPrompt(
      input({ files: [image, longText] }),
      DEFAULT_PROMPT_OPTIONS,
    );
    const parts = prompt.messages[1]!.parts;
    expect(parts.filter((part) => part.type === 'image')).toHaveLength(1);
    const text = promptText(prompt);
    expect(text).toContain('Attachment 1 (image, start screenshot): start.png');
    expect(text).toContain('[… truncated: 20000 of 50000 characters shown]');
    expect(text).toContain('## Operating context\nYou work for ACME finance.');
  });

  it('show tool costs only in the efficiency-aware setting', () => {
    expect(
      promptText(SETTINGS.holistic_planning.buildPrompt(input(), DEFAULT_PROMPT_OPTIONS)),
    ).not.toContain('"cost"');
    const efficiency = promptText(
      SETTINGS.holistic_efficiency.buildPrompt(input(), DEFAULT_PROMPT_OPTIONS),
    );
    expect(efficiency).toContain('"cost":2');
    expect(efficiency).toContain('lowest total cost');
  });

  it('give the extraneous settings exactly the base prompt', () => {
    const base = SETTINGS.holistic_planning.buildPrompt(input(), DEFAULT_PROMPT_OPTIONS);
    expect(SETTINGS.holistic_tool_extraneous.buildPrompt(input(), DEFAULT_PROMPT_OPTIONS)).toEqual(
      base,
    );
    const stepInput = input({ regime: 'Step-wise', horizon: 2 });
    expect(
      SETTINGS.step_wise_tool_extraneous.buildPrompt(stepInput, DEFAULT_PROMPT_OPTIONS),
    ).toEqual(SETTINGS.step_wise_planning.buildPrompt(stepInput, DEFAULT_PROMPT_OPTIONS));
    expect(SETTINGS.step_wise_tool_broken.buildPrompt(stepInput, DEFAULT_PROMPT_OPTIONS)).toEqual(
      SETTINGS.step_wise_planning.buildPrompt(stepInput, DEFAULT_PROMPT_OPTIONS),
    );
  });

  it('ask step-wise planners for exactly k actions and explain blind multi-step prediction for k > 1', () => {
    const one = promptText(
      SETTINGS.step_wise_planning.buildPrompt(
        input({ regime: 'Step-wise', horizon: 1 }),
        DEFAULT_PROMPT_OPTIONS,
      ),
    );
    const three = promptText(
      SETTINGS.step_wise_planning.buildPrompt(
        input({ regime: 'Step-wise', horizon: 3 }),
        DEFAULT_PROMPT_OPTIONS,
      ),
    );
    expect(one).toContain('exactly 1 action(s)');
    expect(one).not.toContain('You will not see any tool return');
    expect(three).toContain('exactly 3 action(s)');
    expect(three).toContain('You will not see any tool return');
    expect(three).toContain('(nothing has been executed yet)');
  });

  it('keep one prompt version per setting variant, whatever the case', () => {
    const a = SETTINGS.step_wise_planning.buildPrompt(
      input({ regime: 'Step-wise', horizon: 1 }),
      DEFAULT_PROMPT_OPTIONS,
    ).promptVersion;
    const b = SETTINGS.step_wise_planning.buildPrompt(
      input({ regime: 'Step-wise', horizon: 3, query: 'other' }),
      DEFAULT_PROMPT_OPTIONS,
    ).promptVersion;
    expect(a).toBe(b);
    expect(
      SETTINGS.holistic_planning.buildPrompt(input(), {
        ...DEFAULT_PROMPT_OPTIONS,
        allowRefusal: true,
      }).promptVersion,
    ).not.toBe(
      SETTINGS.holistic_planning.buildPrompt(input(), DEFAULT_PROMPT_OPTIONS).promptVersion,
    );
  });

  it('official protocol sends one JSON payload without any label field', () => {
    const prompt = SETTINGS.step_wise_tool_broken.buildPrompt(
      input({ regime: 'Step-wise', horizon: 1 }),
      { ...DEFAULT_PROMPT_OPTIONS, protocol: 'official' },
    );
    const payload = JSON.parse((prompt.messages[1]!.parts[0] as { text: string }).text) as Record<
      string,
      unknown
    >;
    expect(Object.keys(payload).sort()).toEqual([
      'available_tools',
      'instruction',
      'prediction_horizon',
      'query',
      'system_prompt',
      'tool_names',
      'trajectory_prefix',
    ]);
  });
});
