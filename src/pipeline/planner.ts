/** `Planner`: what produces the raw answer for a case: a model behind a `Provider`, or a named baseline. */
import type { Case } from '../dataset/case.js';
import type { Provider, ProviderResult, SamplingParams } from '../providers/provider.js';
import type { Prompt } from '../settings/prompt.js';

export interface Planner {
  /** The `tested_model` written into every line. */
  readonly id: string;
  readonly kind: 'llm' | 'baseline' | 'code';
  readonly sampling: SamplingParams;
  answer(
    caseItem: Case,
    prompt: Prompt,
    repeat: number,
    signal?: AbortSignal,
  ): Promise<ProviderResult>;
}

/** A model planner: it sends the prompt and nothing else, so what it sees is exactly what the prompt holds. */
export function providerPlanner(
  provider: Provider,
  sampling: SamplingParams,
  json: boolean,
): Planner {
  return {
    id: provider.id,
    kind: 'llm',
    sampling,
    answer: (_caseItem, prompt, repeat, signal) =>
      provider.generate(
        {
          messages: prompt.messages,
          promptVersion: prompt.promptVersion,
          json,
          sampling,
          repeat,
          role: 'planner',
        },
        signal,
      ),
  };
}

/**
 * A planner as code (`module:`, `cmd:`, `http:`): sent the prompt as a model is, plus the case's
 * id and split (never a reference field), so its answers can be told apart and cached per case.
 */
export function codePlanner(provider: Provider, sampling: SamplingParams, json: boolean): Planner {
  return {
    id: provider.id,
    kind: 'code',
    sampling,
    answer: (caseItem, prompt, repeat, signal) =>
      provider.generate(
        {
          messages: prompt.messages,
          promptVersion: prompt.promptVersion,
          json,
          sampling,
          repeat,
          role: 'planner',
          subject: { id: caseItem.id, split: caseItem.split },
        },
        signal,
      ),
  };
}

/** The shape of a baseline (see src/baselines): a deterministic function of the case. */
export interface BaselineAnswerer {
  id: string;
  answer(caseItem: Case): string;
}

/** Wraps a baseline as a planner; it is labelled `baseline:<name>` everywhere, never as a model. */
export function baselinePlanner(name: string, baseline: BaselineAnswerer): Planner {
  return {
    id: `baseline:${name}`,
    kind: 'baseline',
    sampling: {},
    answer: async (caseItem) => ({
      text: baseline.answer(caseItem),
      usage: null,
      latencyMs: 0,
      finishReason: 'stop',
      attempts: 1,
      cached: false,
    }),
  };
}
