/**
 * The environment interface of executable validation (paper §5.1): what an execution benchmark
 * exposes to an agent loop (policy, tools, tasks, sessions on a fresh database) and what its reward
 * needs back (the conversation, the termination, the session's final database). tau2-bench's
 * retail, airline and telecom (dual control: the user has tools too) domains implement it
 * (`environments/tau2/`); any other benchmark can.
 */
import type { Tool } from '../dataset/case.js';

/** A tool as listed to the agent: `{name, description, parameters}` with a JSON-schema `parameters`. */
export type ToolSpec = Tool & { parameters: Record<string, unknown> };

/** What a tool does, as the environment classifies it (tau2's ToolType): only `write` tools change the database. */
export type ToolKind = 'read' | 'write' | 'think' | 'generic';

/** One call of a tool by the agent (or a replay script). */
export interface ExecToolCall {
  /** Call id, unique within a conversation (the agent's own, or assigned by the loop). */
  id: string;
  name: string;
  /** The arguments as the agent sent them (a JSON object; anything else is the tool's error to report). */
  arguments: unknown;
}

/** What a tool call returned: the text the agent sees, and whether it is an error (tau2: `Error: …`). */
export interface ToolOutcome {
  content: string;
  error: boolean;
}

/**
 * One message of an executed conversation, in the order it happened; the shape executions.jsonl
 * records (snake_case, like the rest of the run files).
 */
export type ExecMessage =
  | { role: 'user'; content: string; tool_calls?: ExecToolCall[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ExecToolCall[] }
  | {
      role: 'tool';
      tool_call_id: string;
      name: string;
      content: string;
      error: boolean;
      /** `user` for the result of a user's own tool call (dual control; the agent never sees it). */
      requestor?: 'user';
    };

/** Who asked for a tool call or reference action: the agent, or (dual control) the user on their own device. */
export type Requestor = 'assistant' | 'user';

/**
 * Why a conversation ended (tau2's TerminationReason values). Only `agent_stop` and `user_stop`
 * are evaluated; every other ending scores 0, as tau2 does — except `infrastructure_error` (a model
 * call that failed after its retries), which is no result at all: its reward is null.
 */
export const TERMINATIONS = [
  'agent_stop',
  'user_stop',
  'max_steps',
  'too_many_errors',
  'agent_error',
  'user_error',
  'timeout',
  'infrastructure_error',
  // ToolSandbox: the message log grew by the scenario's max_messages before the user ended it
  'max_messages',
] as const;
export type Termination = (typeof TERMINATIONS)[number];

/** A component of tau2's reward; the reward is the product of those in the task's basis. */
export const REWARD_COMPONENTS = [
  'DB',
  'ENV_ASSERTION',
  'NL_ASSERTION',
  'ACTION',
  'COMMUNICATE',
] as const;
export type RewardComponent = (typeof REWARD_COMPONENTS)[number];

/** One reference action of a task (tau2's `Action`): replayed on a fresh database to get the expected one. */
export interface ReferenceAction {
  actionId: string;
  requestor: Requestor;
  name: string;
  arguments: Record<string, unknown>;
  /** Arguments compared by the ACTION component; null compares every argument of the agent's call. */
  compareArgs: string[] | null;
}

/**
 * A call of a function of the agent's or the user's environment (tau2's `EnvFunctionCall`): an
 * initialisation action that sets the scene before the conversation, or an assertion's check.
 */
export interface EnvFunctionCall {
  envType: Requestor;
  funcName: string;
  arguments: Record<string, unknown>;
}

/** An environment assertion (tau2's `EnvAssertion`): the function's boolean result must equal `assertValue`. */
export interface EnvAssertion extends EnvFunctionCall {
  assertValue: boolean;
  message: string | null;
}

/** The outcome of one environment assertion after the conversation. */
export interface EnvAssertionCheck {
  env_type: Requestor;
  func_name: string;
  arguments: Record<string, unknown>;
  assert_value: boolean;
  met: boolean;
  /** Set when the function raised instead of answering (tau2 would stop its evaluation there). */
  error?: string;
}

/** What the reward of a task checks (tau2's `EvaluationCriteria`). Never shown to the agent or a planner. */
export interface EvaluationCriteria {
  /** null when the task gives none (tau2 then scores the DB component 1 without comparing). */
  actions: ReferenceAction[] | null;
  communicateInfo: string[];
  nlAssertions: string[];
  rewardBasis: RewardComponent[];
  /** tau2's `env_assertions`; absent or null where the task has none. */
  envAssertions?: EnvAssertion[] | null;
}

/** The user side of a task: what a user simulator plays. */
export interface UserScenario {
  persona: string | null;
  /** The whole scenario as tau2 renders it for its user simulator (`str(task.user_scenario)`: Persona, Instructions with Domain, Reason for call, Known info, …). */
  instructions: string;
}

/** A task of an environment. */
export interface ExecTask {
  id: string;
  /** Splits listing the task (`train`, `test`; `base` holds all). */
  splits: string[];
  userScenario: UserScenario;
  /** Evaluator-only: never put any of it in an agent's or a planner's prompt. */
  criteria: EvaluationCriteria;
  /** tau2's `description.purpose`, evaluator-only like `criteria`. */
  purpose: string | null;
  /**
   * tau2's `initial_state.initialization_actions`, applied by `openSession(task)` before the
   * conversation (they set up the problem, so they are evaluator-side too: never in a prompt).
   */
  initializationActions?: EnvFunctionCall[];
}

/** One changed entity between two databases: `collection/key`, with both sides' values (undefined = absent). */
export interface DatabaseDifference {
  collection: string;
  key: string;
  expected: unknown;
  actual: unknown;
}

/** A database as a session left it: cheap to compare with another of the same environment. */
export interface DatabaseState {
  /** True when both hold the same data (tau2's DB hash comparison). */
  equals(other: DatabaseState): boolean;
  /** The entities that differ from `expected`, in collection then key order. */
  differences(expected: DatabaseState): DatabaseDifference[];
  /** The whole database as plain JSON with the domain db.json's top-level keys (for `--dump-db`). */
  toJson(): Record<string, unknown>;
}

/** A conversation's private copy of the database: tools run against it, in order. */
export interface EnvironmentSession {
  /** Runs one tool call; never throws for a bad call (the error text is the outcome, as tau2 returns it). */
  callTool(name: string, args: unknown): ToolOutcome;
  /** Runs one of the user's own tool calls (dual control: environments with `userTools` only). */
  callUserTool?(name: string, args: unknown): ToolOutcome;
  /** The database as it stands now. */
  database(): DatabaseState;
}

/** An execution environment such as `tau2:retail`. */
export interface Environment {
  /** `tau2:retail`, `tau2:airline`, … */
  readonly id: string;
  /** The agent's policy: its system prompt. */
  readonly policy: string;
  /** Every tool the agent may call, in the environment's order. */
  readonly tools: ToolSpec[];
  /** Every task, in file order. */
  readonly tasks: ExecTask[];
  /** Task ids per split name (`train`, `test`, `base`). */
  readonly splits: Record<string, string[]>;
  /** The kind of a tool, or undefined for a name the environment does not have. */
  toolKind(name: string): ToolKind | undefined;
  /**
   * A session on a fresh copy of the initial database; given a task, with the task's
   * initialisation actions applied first (dual-control environments need the task).
   */
  openSession(task?: ExecTask): EnvironmentSession;
  /** The user's own tools (dual control: tau2's telecom phone), shown to the user simulator only. */
  readonly userTools?: ToolSpec[];
  /** The user's instructions for a dual-control domain (how to use the device's tools), added to the user simulator's. */
  readonly userToolGuidelines?: string;
  /**
   * The database the task's reference actions leave, as tau2's evaluator builds it (its gold
   * environment); without it the reward replays the agent's reference actions on `openSession()`.
   */
  referenceDatabase?(task: ExecTask): DatabaseState;
  /** Runs the task's environment assertions on (a copy of) a session's final database. */
  checkEnvAssertions?(task: ExecTask, finalDatabase: DatabaseState): EnvAssertionCheck[];
  /**
   * The environment's own reward in place of tau2's (ToolSandbox: its trajectory similarity), an
   * exec-run `Evaluate` (typed loosely here: exec-run.ts imports this module).
   */
  evaluate?: (input: never, signal?: AbortSignal) => Promise<unknown>;
  /** The prompt versions of the environment's own agent and user simulator (ToolSandbox), for the manifest. */
  readonly promptVersions?: { agent: string; user: string };
  /** The frozen clock the environment's "now" reads (ToolSandbox), recorded in the manifest. */
  readonly clock?: string;
}
