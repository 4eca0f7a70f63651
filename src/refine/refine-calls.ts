/**
 * The two model calls of a refinement round as records: the critic's critique and the reviser's
 * revision (parsed as the split's answer), failures as data, and the usage per role.
 */
import { isFatal, ProviderError } from '../errors.js';
import type { CaseInput, SplitName } from '../dataset/case.js';
import type { Provider, ProviderResult, SamplingParams, Usage } from '../providers/provider.js';
import { redact } from '../redact.js';
import { SETTINGS } from '../settings/index.js';
import type { Prompt } from '../settings/prompt.js';
import type { Critic, CriticReply } from './critic.js';
import type {
  CallError,
  CallRecord,
  CritiqueRecord,
  RevisionRecord,
  RoleUsage,
} from './records.js';

type CallDetails = Pick<
  ProviderResult,
  'usage' | 'latencyMs' | 'finishReason' | 'attempts' | 'cached'
>;

function callRecord(promptVersion: string, result: Partial<CallDetails>): CallRecord {
  return {
    prompt_version: promptVersion,
    usage: result.usage ?? null,
    latency_ms: result.latencyMs ?? null,
    finish_reason: result.finishReason ?? null,
    attempts: result.attempts ?? 0,
    cached: result.cached ?? false,
  };
}

/**
 * A model call's failure as data; a fatal error (key, abort) or anything that is not a
 * `ProviderError` propagates.
 */
function failureOf(error: unknown, promptVersion: string): CallRecord {
  if (isFatal(error) || !(error instanceof ProviderError)) throw error;
  const recorded: CallError = {
    kind: error.kind,
    message: redact(error.message),
    ...(error.status ? { status: error.status } : {}),
  };
  return { ...callRecord(promptVersion, {}), error: recorded };
}

export function addRole(usage: RoleUsage, record: CallRecord): void {
  if (record.error) return;
  usage.calls += 1;
  if (record.cached) return void (usage.cached_calls += 1);
  const reported: Usage | null = record.usage;
  usage.input_tokens += reported?.inputTokens ?? 0;
  usage.output_tokens += reported?.outputTokens ?? 0;
}

export const emptyRole = (): RoleUsage => ({
  calls: 0,
  cached_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
});

/** The text outside `<think>`/`<thinking>`/`<reasoning>` blocks (an unclosed one runs to the end). */
function withoutThinking(text: string): string {
  return text
    .replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '')
    .replace(/<(think|thinking|reasoning)>[\s\S]*$/i, '');
}

export async function askCritic(
  critic: Critic,
  request: Parameters<Critic['critique']>[0],
  signal?: AbortSignal,
): Promise<CritiqueRecord> {
  const version = request.prompt.promptVersion;
  let reply: CriticReply;
  try {
    reply = await critic.critique(request, signal);
  } catch (error) {
    return { ...failureOf(error, version), status: 'error', critic: critic.id, text: '' };
  }
  // Untrusted text: anything but a string, only whitespace, or only thinking is no critique at all.
  const text = typeof reply?.text === 'string' ? reply.text : '';
  return {
    ...callRecord(version, reply ?? {}),
    status: withoutThinking(text).trim() ? 'ok' : 'unreadable',
    critic: critic.id,
    text,
  };
}

/** What the reviser's call needs of a `RefineRequest`. */
export interface ReviserSide {
  split: SplitName;
  input: CaseInput;
  reviser: Provider;
  sampling?: SamplingParams;
  json?: boolean;
  /** The JSON cap the revision is read under. */
  jsonDepth?: number | undefined;
}

export async function askReviser(
  request: ReviserSide,
  prompt: Prompt,
  repeat: number,
  signal?: AbortSignal,
): Promise<RevisionRecord> {
  let result: ProviderResult;
  try {
    result = await request.reviser.generate(
      {
        messages: prompt.messages,
        promptVersion: prompt.promptVersion,
        json: request.json ?? false,
        sampling: request.sampling ?? {},
        repeat,
        role: 'planner',
      },
      signal,
    );
  } catch (error) {
    return { ...failureOf(error, prompt.promptVersion), status: 'error', text: '', parsed: null };
  }
  const parsed = SETTINGS[request.split].parseAnswer(result.text, request.input, request.jsonDepth);
  const base = callRecord(prompt.promptVersion, result);
  if (parsed.kind === 'parse_error')
    return {
      ...base,
      status: 'parse_error',
      text: result.text,
      parsed: null,
      parse_error: parsed.message,
    };
  return { ...base, status: 'ok', text: result.text, parsed };
}
