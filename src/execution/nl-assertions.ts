/**
 * The NL_ASSERTION component: an LLM judge reads the conversation (every message as `role: content`,
 * as tau2's NLAssertionsEvaluator shows it) and decides each assertion. The reply is parsed
 * strictly: one boolean verdict per assertion, in order, or the assertions count as unjudged —
 * never as met (tau2 would take whatever list came back; docs/execution.md).
 */
import { isFatal, ProviderError } from '../errors.js';
import { balancedEnd } from '../json-span.js';
import type { Provider, SamplingParams, Usage } from '../providers/provider.js';
import { versionOf } from '../settings/prompt.js';
import type { ExecMessage } from './environment.js';
import { parseUntrustedJson } from '../json-depth.js';

/** One assertion's verdict. */
export interface NlAssertionCheck {
  assertion: string;
  met: boolean;
  justification: string;
}

/** A judge's answer: a verdict per assertion, or why there is none. */
export type NlJudgement =
  | { ok: true; checks: NlAssertionCheck[]; usage: Usage | null }
  | { ok: false; reason: string; usage: Usage | null };

/** Judges the NL assertions of a conversation. */
export interface NlAssertionJudge {
  readonly id: string;
  judge(
    input: { assertions: string[]; messages: ExecMessage[] },
    signal?: AbortSignal,
  ): Promise<NlJudgement>;
}

const SYSTEM = `You check a customer-service conversation against a list of expected outcomes.
The conversation was recorded in a test: an agent served a customer, calling tools along the way.
Decide for each expected outcome, on its own, whether the agent's behaviour in the conversation satisfies it.

Answer with one JSON object and nothing else:
{"results": [{"expectedOutcome": "<the outcome, copied>", "reasoning": "<one or two sentences>", "metExpectation": true or false}]}
Give exactly one result per expected outcome, in the order they are listed.`;

/** The version of the NL-assertion prompt, recorded with every judged execution. */
export const NL_ASSERTION_PROMPT_VERSION = versionOf('tau2-nl-assertions', SYSTEM);

/** The conversation as tau2 lays it out for its judge: `role: content`, None for an empty content. */
export function conversationText(messages: ExecMessage[]): string {
  return messages.map((message) => `${message.role}: ${message.content ?? 'None'}`).join('\n');
}

function userPrompt(assertions: string[], messages: ExecMessage[]): string {
  return `Conversation:\n${conversationText(messages)}\n\nExpected outcomes:\n${assertions.map((assertion, index) => `${index + 1}. ${assertion}`).join('\n')}`;
}

function firstObject(text: string, maxDepth: number | undefined): unknown {
  const unfenced = text
    .replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '')
    .replace(/```[a-zA-Z0-9_-]*/g, ' ');
  const start = unfenced.indexOf('{');
  if (start < 0) return undefined;
  const end = balancedEnd(unfenced, start);
  if (end < 0) return undefined;
  try {
    return parseUntrustedJson(unfenced.slice(start, end), maxDepth);
  } catch {
    return undefined;
  }
}

/** Reads a judge reply into one check per assertion, or the reason it cannot be read. */
export function parseNlJudgement(
  reply: string,
  assertions: string[],
  jsonDepth?: number,
): { checks: NlAssertionCheck[] } | { reason: string } {
  const value = firstObject(reply, jsonDepth) as { results?: unknown } | undefined;
  if (!value || typeof value !== 'object' || !Array.isArray(value.results))
    return { reason: 'the reply holds no JSON object with a "results" list' };
  if (value.results.length !== assertions.length)
    return {
      reason: `the reply judges ${value.results.length} outcome(s), the task has ${assertions.length}`,
    };
  const checks: NlAssertionCheck[] = [];
  for (const [index, result] of value.results.entries()) {
    const met = (result as { metExpectation?: unknown } | null)?.metExpectation;
    if (typeof met !== 'boolean')
      return { reason: `result ${index + 1} has no boolean "metExpectation"` };
    const reasoning = (result as { reasoning?: unknown }).reasoning;
    checks.push({
      assertion: assertions[index]!,
      met,
      justification: typeof reasoning === 'string' ? reasoning : '',
    });
  }
  return { checks };
}

/** An NL-assertion judge over a provider (JSON mode, temperature 0, role `judge`). */
export function createNlAssertionJudge(
  provider: Provider,
  /** The judge's options (`--judge-…`: max tokens, seed, …); its temperature stays 0. */
  options: Omit<SamplingParams, 'temperature'> = {},
  /** The JSON cap replies are read under; default `DEFAULT_LIMITS`'. */
  jsonDepth?: number,
): NlAssertionJudge {
  return {
    id: provider.id,
    async judge({ assertions, messages }, signal) {
      try {
        const result = await provider.generate(
          {
            messages: [
              { role: 'system', parts: [{ type: 'text', text: SYSTEM }] },
              { role: 'user', parts: [{ type: 'text', text: userPrompt(assertions, messages) }] },
            ],
            promptVersion: NL_ASSERTION_PROMPT_VERSION,
            json: true,
            sampling: { ...options, temperature: 0 },
            repeat: 0,
            role: 'judge',
          },
          signal,
        );
        const parsed = parseNlJudgement(result.text, assertions, jsonDepth);
        return 'checks' in parsed
          ? { ok: true, checks: parsed.checks, usage: result.usage }
          : { ok: false, reason: parsed.reason, usage: result.usage };
      } catch (error) {
        // Auth failures and cancellations stop the run; any other failed call leaves the assertions unjudged.
        if (signal?.aborted || isFatal(error) || !(error instanceof ProviderError)) throw error;
        return { ok: false, reason: error.message, usage: null };
      }
    },
  };
}
