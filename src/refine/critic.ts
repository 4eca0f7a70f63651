/**
 * The `Critic` contract: whatever writes the critique of one answer. A model behind a `Provider`
 * (`providerCritic`; self-refinement passes the tested model's own provider) or any function of
 * yours (`functionCritic`, e.g. a deterministic verifier). A critic is given what the planner saw
 * and the answer, never a reference or a label.
 */
import type { CaseInput, SplitName } from '../dataset/case.js';
import type { FinishReason, Provider, SamplingParams, Usage } from '../providers/provider.js';
import type { Prompt } from '../settings/prompt.js';
import type { CritiqueProfile, RefineMode } from './refine-prompts.js';

/** Everything a critic is given for one round. */
export interface CritiqueRequest {
  /** The ready-made critique request for a model: reviewer role, the planner's prompt, the quoted answer, the instruction. */
  prompt: Prompt;
  /** The planner's exact prompt, images included. */
  plannerPrompt: Prompt;
  /** The answer under review. */
  answer: string;
  split: SplitName;
  /** What the planner saw of the case (never the reference). */
  input: CaseInput;
  profile: CritiqueProfile;
  taxonomy: boolean;
  mode: RefineMode;
  /** 1-based round number. */
  round: number;
  /** The repeat index of the answer under refinement (distinct repeats are distinct cache entries). */
  repeat: number;
}

/** A critic's reply: the critique text, plus call details when it came from a model. */
export interface CriticReply {
  text: string;
  usage?: Usage | null;
  latencyMs?: number;
  finishReason?: FinishReason;
  attempts?: number;
  cached?: boolean;
}

/** Writes the critique of one answer. A failed model call throws `ProviderError`, as providers do. */
export interface Critic {
  /** Recorded in every refinement record (`vendor:model`, or the name you give a function critic). */
  readonly id: string;
  critique(request: CritiqueRequest, signal?: AbortSignal): Promise<CriticReply>;
}

/** A model critic: sends the critique request as it is, free text (no JSON mode), with the `critic` role. */
export function providerCritic(provider: Provider, sampling: SamplingParams = {}): Critic {
  return {
    id: provider.id,
    critique: async (request, signal) =>
      provider.generate(
        {
          messages: request.prompt.messages,
          promptVersion: request.prompt.promptVersion,
          json: false,
          sampling,
          repeat: request.repeat,
          role: 'critic',
        },
        signal,
      ),
  };
}

/** A critic made of your own function; a plain string reply is the critique. */
export function functionCritic(
  id: string,
  critique: (
    request: CritiqueRequest,
    signal?: AbortSignal,
  ) => Promise<string | CriticReply> | string | CriticReply,
): Critic {
  return {
    id,
    critique: async (request, signal) => {
      const reply = await critique(request, signal);
      return typeof reply === 'string' ? { text: reply } : reply;
    },
  };
}

/** True for a `Provider` rather than a `Critic` (the loop accepts either). */
export function isProvider(value: Critic | Provider): value is Provider {
  return typeof (value as Provider).generate === 'function';
}
