/**
 * `createLlmJudge`: a `Judge` backed by a `Provider`. Builds the split's judge prompt, asks in JSON
 * mode at temperature 0, parses strictly, and re-asks a bounded number of times when the reply is
 * unreadable. A failed call becomes `Unjudged`; only an auth failure or a cancellation propagates.
 */
import { ProviderError } from '../errors.js';
import type { Provider, SamplingParams, Usage } from '../providers/provider.js';
import type { PromptMessage } from '../settings/prompt.js';
import type { Judge, JudgeInput, JudgeResult } from './judge.js';
import { parseVerdict } from './parse-verdict.js';
import { buildJudgePrompt, expectationFor, rubricVersion } from './rubric.js';
import type { JudgeOutcome, Unjudged } from './verdict.js';

/** How an LLM judge is set up. */
export interface LlmJudgeOptions {
  provider: Provider;
  protocol: 'paper' | 'official';
  /** The paper's Table 7 ablation: the judge sees no reference. */
  blind: boolean;
  /** Extra asks after an unreadable reply (default 1). */
  maxReasks?: number;
  /** Sampling beyond temperature 0 (which is always sent), e.g. an output budget for thinking judges. */
  sampling?: Omit<SamplingParams, 'temperature'>;
}

/** The short corrective message sent after an unreadable reply. */
export function reaskMessage(unjudged: Unjudged): string {
  return `Your reply could not be used: ${unjudged.message}. Reply again with only the JSON object the instructions describe, every required key included, and no other text.`;
}

function addUsage(total: Usage | null, next: Usage | null): Usage | null {
  if (!next) return total;
  if (!total) return { ...next };
  const sum: Usage = {
    inputTokens: total.inputTokens + next.inputTokens,
    outputTokens: total.outputTokens + next.outputTokens,
  };
  if (total.reasoningTokens !== undefined || next.reasoningTokens !== undefined)
    sum.reasoningTokens = (total.reasoningTokens ?? 0) + (next.reasoningTokens ?? 0);
  if (total.cachedInputTokens !== undefined || next.cachedInputTokens !== undefined)
    sum.cachedInputTokens = (total.cachedInputTokens ?? 0) + (next.cachedInputTokens ?? 0);
  return sum;
}

/** True when the error must stop the run instead of being recorded as an unjudged case. */
function mustPropagate(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  return !(error instanceof ProviderError) || error.kind === 'auth' || error.kind === 'aborted';
}

/** Creates the LLM judge; its id is the provider id. */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const maxReasks = options.maxReasks ?? 1;
  if (!Number.isInteger(maxReasks) || maxReasks < 0)
    throw new RangeError(`maxReasks must be a non-negative integer, got ${maxReasks}`);
  const { provider, protocol, blind } = options;
  return {
    id: provider.id,
    kind: 'llm',
    version: rubricVersion({ protocol, blind }),
    async judge(input: JudgeInput, signal?: AbortSignal): Promise<JudgeResult> {
      const { prompt, promptVersion } = buildJudgePrompt(input, { protocol, blind });
      const expectation = expectationFor(input.case.split, protocol);
      const messages: PromptMessage[] = [...prompt.messages];
      let usage: Usage | null = null;
      let latencyMs = 0;
      let attempts = 0;
      let cached = true;
      const batchIds: string[] = [];
      let outcome: JudgeOutcome | null = null;
      const earlier: string[] = [];
      while (attempts <= maxReasks) {
        attempts += 1;
        try {
          const result = await provider.generate(
            {
              messages,
              promptVersion,
              json: true,
              sampling: { ...options.sampling, temperature: 0 },
              repeat: input.repeat,
              role: 'judge',
            },
            signal,
          );
          usage = addUsage(usage, result.usage);
          latencyMs += result.latencyMs;
          cached &&= result.cached;
          if (result.batch && !batchIds.includes(result.batch.id)) batchIds.push(result.batch.id);
          outcome = parseVerdict(result.text, expectation);
          if (outcome.kind === 'unjudged' && result.finishReason === 'length')
            outcome = {
              ...outcome,
              message: `${outcome.message} (the reply hit the output-token limit)`,
            };
          if (outcome.kind === 'verdict') break;
          earlier.push(`${outcome.reason}: ${outcome.message}`);
          messages.push(
            { role: 'assistant', parts: [{ type: 'text', text: result.text }] },
            { role: 'user', parts: [{ type: 'text', text: reaskMessage(outcome) }] },
          );
        } catch (error) {
          if (mustPropagate(error, signal)) throw error;
          const failure = error as ProviderError;
          cached = false;
          outcome = {
            kind: 'unjudged',
            reason: 'judge-call-failed',
            message: `${failure.kind}${failure.status ? ` ${failure.status}` : ''}: ${failure.message}`,
          };
          break;
        }
      }
      if (outcome?.kind === 'verdict' && earlier.length > 0)
        outcome.notes.push(`readable on ask ${attempts} after: ${earlier.join(' | ')}`);
      if (outcome?.kind === 'unjudged' && earlier.length > 1)
        outcome = {
          ...outcome,
          message: `${outcome.message} (after ${attempts} asks: ${earlier.join(' | ')})`,
        };
      return {
        outcome: outcome!,
        usage,
        latencyMs,
        attempts,
        cached,
        promptVersion,
        ...(batchIds.length > 0 ? { batchIds } : {}),
      };
    },
  };
}
