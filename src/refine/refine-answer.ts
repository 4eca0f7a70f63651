/**
 * `refineAnswer`: the critique → revision loop of inference-time refinement (paper §5.3, C.7) on
 * one answer, independent of run directories. Round r critiques the current answer (the initial
 * one in round 1) and asks the tested model for a revision given its own prompt, that answer and
 * the critique; the last round's revision is the refined answer. Steps already finished (`done`)
 * are reused, never sent again; each new one is handed to `onStep` as soon as it completes.
 * Design notes: docs/refine.md.
 */
import type { CaseInput, SplitName } from '../dataset/case.js';
import { isFatal, ProviderError } from '../errors.js';
import type { Provider, ProviderResult, SamplingParams, Usage } from '../providers/provider.js';
import { redact } from '../redact.js';
import { SETTINGS } from '../settings/index.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Prompt } from '../settings/prompt.js';
import { isProvider, providerCritic, type Critic, type CriticReply } from './critic.js';
import {
  isFinishedStep,
  type CallError,
  type CallRecord,
  type CritiqueRecord,
  type RefineRound,
  type RefineStatus,
  type RefineStep,
  type RevisionRecord,
  type RoleUsage,
} from './records.js';
import {
  buildCritiquePrompt,
  buildRevisionPrompt,
  critiqueProfile,
  type RefineMode,
} from './refine-prompts.js';

/** One answer to refine, and how. */
export interface RefineRequest {
  split: SplitName;
  /** What the planner saw of the case; the revised answer is parsed against it. */
  input: CaseInput;
  /** The planner's exact prompt (messages with images) that produced `initialAnswer`. */
  prompt: Prompt;
  initialAnswer: string;
  /** The tested model: it writes every revision (role `planner`). */
  reviser: Provider;
  /** Who critiques: a `Critic`, or a `Provider` (pass `reviser` for self-refinement). */
  critic: Critic | Provider;
  /** Default: `self` when the critic is the reviser, `critic` otherwise. */
  mode?: RefineMode;
  /** With the E1–E6 taxonomy (`--metric`, the default) or a general critique (`--no-metric`). */
  taxonomy?: boolean;
  /** Critique → revision rounds (default 1, as in the paper). */
  rounds?: number;
  /** The tested model's sampling (as in its run); the revision uses it. */
  sampling?: SamplingParams;
  /** Sampling of a `Provider` critic (default temperature 0). */
  criticSampling?: SamplingParams;
  /** Ask the reviser for a JSON reply (as the run's planner was asked). */
  json?: boolean;
  /** The run let every split's prompt allow REJECT (the unsolvable split always does). */
  allowRefusal?: boolean;
  repeat?: number;
  done?: readonly RefineStep[];
  onStep?: (step: RefineStep) => void | Promise<void>;
}

/**
 * What a refinement produced: every round, the refined answer (null unless a revision came back),
 * and usage per role.
 */
export interface RefineOutcome {
  status: RefineStatus;
  mode: RefineMode;
  taxonomy: boolean;
  critic: string;
  rounds: RefineRound[];
  text: string | null;
  parsed: ParsedAnswer | null;
  usage: { critic: RoleUsage; planner: RoleUsage };
}

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

/** A model call's failure as data; a fatal error (key, abort) or anything that is not a `ProviderError` propagates. */
function failureOf(error: unknown, promptVersion: string): CallRecord {
  if (isFatal(error) || !(error instanceof ProviderError)) throw error;
  const recorded: CallError = {
    kind: error.kind,
    message: redact(error.message),
    ...(error.status ? { status: error.status } : {}),
  };
  return { ...callRecord(promptVersion, {}), error: recorded };
}

function addRole(usage: RoleUsage, record: CallRecord): void {
  if (record.error) return;
  usage.calls += 1;
  if (record.cached) return void (usage.cached_calls += 1);
  const reported: Usage | null = record.usage;
  usage.input_tokens += reported?.inputTokens ?? 0;
  usage.output_tokens += reported?.outputTokens ?? 0;
}

const emptyRole = (): RoleUsage => ({
  calls: 0,
  cached_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
});

/**
 * Runs the refinement loop on one answer. Throws only what must stop a run (a rejected key, an
 * abort, a budget refusal).
 */
export async function refineAnswer(
  request: RefineRequest,
  signal?: AbortSignal,
): Promise<RefineOutcome> {
  const rounds = request.rounds ?? 1;
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new RangeError(`rounds must be a positive integer (got ${rounds})`);
  const critic = isProvider(request.critic)
    ? providerCritic(request.critic, request.criticSampling ?? { temperature: 0 })
    : request.critic;
  const mode = request.mode ?? (request.critic === request.reviser ? 'self' : 'critic');
  const taxonomy = request.taxonomy ?? true;
  const profile = critiqueProfile(request.split, request.input, request.allowRefusal);
  const done = new Map(
    (request.done ?? []).filter(isFinishedStep).map((step) => [`${step.round}/${step.kind}`, step]),
  );
  const repeat = request.repeat ?? 0;
  const usage = { critic: emptyRole(), planner: emptyRole() };
  const recorded: RefineRound[] = [];
  let current = request.initialAnswer;

  const finish = async (step: RefineStep) => {
    if (!done.has(`${step.round}/${step.kind}`) && isFinishedStep(step))
      await request.onStep?.(step);
  };
  const outcome = (
    status: RefineStatus,
    text: string | null,
    parsed: ParsedAnswer | null,
  ): RefineOutcome => ({
    status,
    mode,
    taxonomy,
    critic: critic.id,
    rounds: recorded,
    text,
    parsed,
    usage,
  });

  for (let round = 1; round <= rounds; round += 1) {
    const prompt = buildCritiquePrompt({
      plannerPrompt: request.prompt,
      answer: current,
      profile,
      taxonomy,
      mode,
    });
    const critiqueStep = done.get(`${round}/critique`) as
      Extract<RefineStep, { kind: 'critique' }> | undefined;
    const critique =
      critiqueStep?.record ??
      (await askCritic(
        critic,
        {
          prompt,
          plannerPrompt: request.prompt,
          answer: current,
          split: request.split,
          input: request.input,
          profile,
          taxonomy,
          mode,
          round,
          repeat,
        },
        signal,
      ));
    await finish({ round, kind: 'critique', record: critique });
    addRole(usage.critic, critique);
    const entry: RefineRound = { round, critique, revision: null };
    recorded.push(entry);
    if (critique.status !== 'ok')
      return outcome(
        critique.status === 'error' ? 'critique_failed' : 'critique_unreadable',
        null,
        null,
      );

    const revisionStep = done.get(`${round}/revision`) as
      Extract<RefineStep, { kind: 'revision' }> | undefined;
    const revision =
      revisionStep?.record ??
      (await askReviser(
        request,
        buildRevisionPrompt(request.prompt, current, critique.text),
        repeat,
        signal,
      ));
    await finish({ round, kind: 'revision', record: revision });
    addRole(usage.planner, revision);
    entry.revision = revision;
    if (revision.status === 'error') return outcome('revision_failed', null, null);
    current = revision.text;
    if (round === rounds) {
      const parsed: ParsedAnswer = revision.parsed ?? {
        kind: 'parse_error',
        message: revision.parse_error ?? 'the revised answer could not be read',
      };
      return outcome(revision.status, revision.text, parsed);
    }
  }
  throw new Error('unreachable: the loop returns in its last round');
}

/** The text outside `<think>`/`<thinking>`/`<reasoning>` blocks (an unclosed one runs to the end). */
function withoutThinking(text: string): string {
  return text
    .replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '')
    .replace(/<(think|thinking|reasoning)>[\s\S]*$/i, '');
}

async function askCritic(
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

async function askReviser(
  request: RefineRequest,
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
  const parsed = SETTINGS[request.split].parseAnswer(result.text, request.input);
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
