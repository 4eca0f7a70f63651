/**
 * The conversation of one exec mode: tau2's loop (loop.ts) with the model agent and user
 * simulator, or an environment's own protocol where it has one (ToolSandbox's `converse`), or —
 * when the opening's first user message failed — no conversation at all (an infrastructure
 * error). Also the task and environment shapes the exec run needs.
 */
import type { Provider, SamplingParams, ToolDefinition } from '../providers/provider.js';
import { AGENT_PROMPT_VERSION, agentSystemText, modelAgent } from './agent.js';
import { runConversation, type LoopResult, type ToolSession } from './loop.js';
import type { ReferenceCall } from './plan-judgement.js';
import type { OpeningLine } from './records.js';
import { modelUser, USER_PROMPT_VERSION } from './user-simulator.js';

/** A task as the exec run needs it (the environment interface's `ExecTask` has this shape). */
export interface ExecTaskView {
  id: string;
  userScenario: { persona: string | null; instructions: string };
  criteria: { actions: ReferenceCall[] | null };
  /**
   * Where the task fixes the user's first message (ToolSandbox's scenarios): no simulator call
   * makes it.
   */
  firstUserMessage?: string;
  /**
   * The agent's policy and tools where they are the task's own (ToolSandbox's variants), else the
   * environment's.
   */
  policy?: string;
  tools?: ToolDefinition[];
}

/** What an environment with its own conversation protocol is given to play one (ToolSandbox). */
export interface ConverseInput {
  task: ExecTaskView;
  session: ToolSession;
  /** The plan block of plan-first and refine, null in direct. */
  planBlock: string | null;
  agent: { provider: Provider; sampling: SamplingParams; repeat: number };
  user: { provider: Provider; sampling: SamplingParams; repeat: number };
  firstUserMessage: string;
  signal?: AbortSignal;
}

/** A conversation an environment played itself, with the prompt versions of its agent and user. */
export type ConverseResult = LoopResult & {
  promptVersions: { agent: string; user: string };
};

/**
 * An environment as the exec run needs it (the environment interface's `Environment` has this
 * shape).
 */
export interface ExecEnvironment {
  readonly id: string;
  readonly policy: string;
  readonly tools: ToolDefinition[];
  /**
   * Given the task, the session starts with the task's initialisation actions applied (telecom).
   */
  openSession(task?: ExecTaskView): ToolSession;
  /** The user's own tools and their instructions (dual control), for the user simulator only. */
  readonly userTools?: ToolDefinition[];
  readonly userToolGuidelines?: string;
  /**
   * Plays a conversation by the environment's own protocol in place of tau2's loop (ToolSandbox).
   */
  converse?(input: ConverseInput): Promise<ConverseResult>;
}

/** What one mode's conversation is played with. */
export interface ModeConversation {
  env: ExecEnvironment;
  task: ExecTaskView;
  opening: OpeningLine;
  planBlock: string | null;
  session: ToolSession;
  agent: { provider: Provider; sampling: SamplingParams; repeat: number };
  user: { provider: Provider; sampling: SamplingParams; repeat: number };
  limits: { maxSteps: number; maxErrors: number };
  signal: AbortSignal;
}

const empty = () => ({ calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0 });

/** The user simulator's own tools, where the environment gives the user some (telecom). */
const userToolsOf = (env: ExecEnvironment) =>
  env.userTools ? { tools: env.userTools, toolGuidelines: env.userToolGuidelines ?? '' } : {};

/** Plays one mode's conversation from the shared opening. */
export async function converseMode(input: ModeConversation): Promise<ConverseResult> {
  const { env, task, opening, agent, user, signal } = input;
  const tau2Versions = { agent: AGENT_PROMPT_VERSION, user: USER_PROMPT_VERSION };
  const first = opening.first_user_message;
  if (first === null)
    return {
      messages: [],
      termination: 'infrastructure_error',
      stopSignal: null,
      steps: 0,
      toolErrors: 0,
      error: opening.error!,
      usage: { agent: empty(), user: empty() },
      promptVersions: tau2Versions,
    };
  if (env.converse)
    return env.converse({
      task,
      session: input.session,
      planBlock: input.planBlock,
      agent,
      user,
      firstUserMessage: first,
      signal,
    });
  const result = await runConversation({
    agent: modelAgent({
      ...agent,
      taskId: task.id,
      system: agentSystemText(task.policy ?? env.policy, input.planBlock),
      tools: task.tools ?? env.tools,
    }),
    user: modelUser({
      ...user,
      scenario: task.userScenario.instructions,
      persona: task.userScenario.persona,
      ...userToolsOf(env),
    }),
    session: input.session,
    ...input.limits,
    firstUserMessage: { content: first, toolCalls: [], usage: null, cached: true },
    signal,
  });
  return { ...result, promptVersions: tau2Versions };
}
