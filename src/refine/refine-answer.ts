/**
 * `refineAnswer`: the critique → revision loop of inference-time refinement (paper §5.3, C.7) on
 * one answer, independent of run directories. Round r critiques the current answer (the initial
 * one in round 1) and asks the tested model for a revision given its own prompt, that answer and
 * the critique; the last round's revision is the refined answer. Steps already finished (`done`)
 * are reused, never sent again; each new one is handed to `onStep` as soon as it completes.
 * Design notes: docs/refine.md.
 */
import type { CaseInput, SplitName } from '../dataset/case.js';
import type { Provider, SamplingParams } from '../providers/provider.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Prompt } from '../settings/prompt.js';
import { isProvider, providerCritic, type Critic } from './critic.js';
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
  type CritiqueProfile,
  type RefineMode,
} from './refine-prompts.js';
import { addRole, askCritic, askReviser, emptyRole } from './refine-calls.js';

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
  /** The JSON cap revised answers are read under (`Limits.jsonDepth`); default `DEFAULT_LIMITS`'. */
  jsonDepth?: number | undefined;
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

/** What every round of one refinement shares. */
interface RefineLoop {
  request: RefineRequest;
  critic: Critic;
  mode: RefineMode;
  taxonomy: boolean;
  profile: CritiqueProfile;
  /** Steps finished before (a resumed refinement), by `round/kind`. */
  done: Map<string, RefineStep>;
  repeat: number;
  usage: RefineOutcome['usage'];
  recorded: RefineRound[];
  signal?: AbortSignal;
}

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
  const loop = loopOf(request, signal);
  let current = request.initialAnswer;
  for (let round = 1; round <= rounds; round += 1) {
    const critique = await critiqueRound(loop, round, current);
    const entry: RefineRound = { round, critique, revision: null };
    loop.recorded.push(entry);
    if (critique.status !== 'ok')
      return outcomeOf(
        loop,
        critique.status === 'error' ? 'critique_failed' : 'critique_unreadable',
        null,
        null,
      );
    const revision = await revisionRound(loop, round, current, critique.text);
    entry.revision = revision;
    if (revision.status === 'error') return outcomeOf(loop, 'revision_failed', null, null);
    current = revision.text;
    if (round === rounds) {
      const parsed: ParsedAnswer = revision.parsed ?? {
        kind: 'parse_error',
        message: revision.parse_error ?? 'the revised answer could not be read',
      };
      return outcomeOf(loop, revision.status, revision.text, parsed);
    }
  }
  throw new Error('unreachable: the loop returns in its last round');
}

/** The shared part of a refinement: the critic, the mode, the profile and the finished steps. */
function loopOf(request: RefineRequest, signal: AbortSignal | undefined): RefineLoop {
  const critic = isProvider(request.critic)
    ? providerCritic(request.critic, request.criticSampling ?? { temperature: 0 })
    : request.critic;
  return {
    request,
    critic,
    mode: request.mode ?? (request.critic === request.reviser ? 'self' : 'critic'),
    taxonomy: request.taxonomy ?? true,
    profile: critiqueProfile(request.split, request.input, request.allowRefusal),
    done: new Map(
      (request.done ?? [])
        .filter(isFinishedStep)
        .map((step) => [`${step.round}/${step.kind}`, step]),
    ),
    repeat: request.repeat ?? 0,
    usage: { critic: emptyRole(), planner: emptyRole() },
    recorded: [],
    signal,
  };
}

function outcomeOf(
  loop: RefineLoop,
  status: RefineStatus,
  text: string | null,
  parsed: ParsedAnswer | null,
): RefineOutcome {
  const { mode, taxonomy, usage } = loop;
  return {
    status,
    mode,
    taxonomy,
    critic: loop.critic.id,
    rounds: loop.recorded,
    text,
    parsed,
    usage,
  };
}

/** Reports a step the first time it finishes (not when it was read back from `done`). */
async function finish(loop: RefineLoop, step: RefineStep): Promise<void> {
  if (!loop.done.has(`${step.round}/${step.kind}`) && isFinishedStep(step))
    await loop.request.onStep?.(step);
}

/** A round's critique: the one finished before, or a new one from the critic. */
async function critiqueRound(
  loop: RefineLoop,
  round: number,
  current: string,
): Promise<CritiqueRecord> {
  const { request, profile, taxonomy, mode } = loop;
  const prompt = buildCritiquePrompt({
    plannerPrompt: request.prompt,
    answer: current,
    profile,
    taxonomy,
    mode,
  });
  const step = loop.done.get(`${round}/critique`) as
    Extract<RefineStep, { kind: 'critique' }> | undefined;
  const critique =
    step?.record ??
    (await askCritic(
      loop.critic,
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
        repeat: loop.repeat,
      },
      loop.signal,
    ));
  await finish(loop, { round, kind: 'critique', record: critique });
  addRole(loop.usage.critic, critique);
  return critique;
}

/** A round's revision: the one finished before, or a new one from the reviser. */
async function revisionRound(
  loop: RefineLoop,
  round: number,
  current: string,
  critique: string,
): Promise<RevisionRecord> {
  const step = loop.done.get(`${round}/revision`) as
    Extract<RefineStep, { kind: 'revision' }> | undefined;
  const revision =
    step?.record ??
    (await askReviser(
      loop.request,
      buildRevisionPrompt(loop.request.prompt, current, critique),
      loop.repeat,
      loop.signal,
    ));
  await finish(loop, { round, kind: 'revision', record: revision });
  addRole(loop.usage.planner, revision);
  return revision;
}
