/**
 * `createLlmJudge`: a `Judge` backed by a `Provider`. Builds the split's judge prompt, asks in JSON
 * mode at temperature 0, parses strictly, and re-asks a bounded number of times when the reply is
 * unreadable. A failed call becomes `Unjudged`; only an auth failure or a cancellation propagates.
 */
import { ProviderError } from '../errors.js';
import type { Provider, ProviderRequest, SamplingParams, Usage } from '../providers/provider.js';
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
  /** The JSON cap replies are read under (`Limits.jsonDepth`); default `DEFAULT_LIMITS`'. */
  jsonDepth?: number;
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

/** What the asks of one judgement gathered so far. */
interface Asking {
  usage: Usage | null;
  latencyMs: number;
  attempts: number;
  cached: boolean;
  batchIds: string[];
  /** Why each earlier reply could not be used. */
  earlier: string[];
  outcome: JudgeOutcome | null;
}

const freshAsking = (): Asking => ({
  usage: null,
  latencyMs: 0,
  attempts: 0,
  cached: true,
  batchIds: [],
  earlier: [],
  outcome: null,
});

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
      const state = freshAsking();
      while (state.attempts <= maxReasks) {
        state.attempts += 1;
        const request: ProviderRequest = {
          messages,
          promptVersion,
          json: true,
          sampling: { ...options.sampling, temperature: 0 },
          repeat: input.repeat,
          role: 'judge',
        };
        const ask = { expectation, messages, state, jsonDepth: options.jsonDepth };
        if (await askOnce(provider, request, ask, signal)) break;
      }
      return {
        outcome: withHistory(state),
        usage: state.usage,
        latencyMs: state.latencyMs,
        attempts: state.attempts,
        cached: state.cached,
        promptVersion,
        ...(state.batchIds.length > 0 ? { batchIds: state.batchIds } : {}),
      };
    },
  };
}

/**
 * One ask: the reply read into `state.outcome`, usage and timing added; after an unreadable reply,
 * the reply and the corrective message appended to `messages`. True when asking is over (a verdict,
 * or a failed call recorded as unjudged); an error that must stop the run is thrown.
 */
async function askOnce(
  provider: Provider,
  request: ProviderRequest,
  ask: {
    expectation: ReturnType<typeof expectationFor>;
    messages: PromptMessage[];
    state: Asking;
    jsonDepth: number | undefined;
  },
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const { state } = ask;
  try {
    const result = await provider.generate(request, signal);
    state.usage = addUsage(state.usage, result.usage);
    state.latencyMs += result.latencyMs;
    state.cached &&= result.cached;
    if (result.batch && !state.batchIds.includes(result.batch.id))
      state.batchIds.push(result.batch.id);
    let outcome = parseVerdict(result.text, ask.expectation, ask.jsonDepth);
    if (outcome.kind === 'unjudged' && result.finishReason === 'length')
      outcome = {
        ...outcome,
        message: `${outcome.message} (the reply hit the output-token limit)`,
      };
    state.outcome = outcome;
    if (outcome.kind === 'verdict') return true;
    state.earlier.push(`${outcome.reason}: ${outcome.message}`);
    ask.messages.push(
      { role: 'assistant', parts: [{ type: 'text', text: result.text }] },
      { role: 'user', parts: [{ type: 'text', text: reaskMessage(outcome) }] },
    );
    return false;
  } catch (error) {
    if (mustPropagate(error, signal)) throw error;
    const failure = error as ProviderError;
    state.cached = false;
    state.outcome = {
      kind: 'unjudged',
      reason: 'judge-call-failed',
      message: `${failure.kind}${failure.status ? ` ${failure.status}` : ''}: ${failure.message}`,
    };
    return true;
  }
}

/** The final outcome, with what the earlier asks could not use. */
function withHistory(state: Asking): JudgeOutcome {
  const { outcome, earlier, attempts } = state;
  if (outcome?.kind === 'verdict' && earlier.length > 0)
    outcome.notes.push(`readable on ask ${attempts} after: ${earlier.join(' | ')}`);
  if (outcome?.kind === 'unjudged' && earlier.length > 1)
    return {
      ...outcome,
      message: `${outcome.message} (after ${attempts} asks: ${earlier.join(' | ')})`,
    };
  return outcome!;
}
