/**
 * Apple's ToolSandbox as an execution environment of `apb exec` (`--env toolsandbox`): every
 * selected scenario is a task with its own agent tools (the variant's list, scrambled as
 * ToolSandbox scrambles it), its own system message as the agent's policy and its own first user
 * message; a conversation follows ToolSandbox's protocol (conversation.ts, user-simulator.ts) on a
 * fresh copy of the scenario's world under the frozen clock (clock.ts); the score is ToolSandbox's
 * trajectory `similarity` in [0, 1], with each milestone's similarity and whether a minefield hit.
 */
import type {
  DatabaseDifference,
  DatabaseState,
  Environment,
  EnvironmentSession,
  ExecTask,
  ReferenceAction,
  ToolSpec,
} from '../../environment.js';
import type { ConverseInput, ConverseResult, Evaluate, ExecTaskView } from '../../exec-run.js';
import { modelAgent } from '../../agent.js';
import { withPlan } from '../../plans.js';
import { loadAgentTools, type AgentTools } from './agent-tools.js';
import { clockText, DEFAULT_CLOCK, parseClock, setClock, shiftNodes, shiftRow } from './clock.js';
import { writeStateDump } from './dump-state.js';
import { evaluate } from './evaluation.js';
import type { ExecutionContext } from './execution-context.js';
import { playConversation } from './conversation.js';
import { recordFields } from './record.js';
import { referenceCalls } from './reference-calls.js';
import { offered } from './replay.js';
import { loadScenarios, type Scenario } from './scenarios.js';
import { NAMESPACES } from './schemas.js';
import { ToolSandboxSession } from './session.js';
import { selectScenarios, type ScenarioSelection } from './subsets.js';
import { TOOLS } from './tools.js';
import { TOOLSANDBOX_USER_PROMPT_VERSION, toolSandboxUser, userTaskOf } from './user-simulator.js';
import { versionOf } from '../../../settings/prompt.js';

/**
 * The agent's standing instructions in ToolSandbox (its agents get only the scenario's system
 * message).
 */
export const TOOLSANDBOX_AGENT_PROMPT_VERSION = versionOf('toolsandbox-agent', 'system-message');

/** How the environment is built. */
export interface ToolSandboxOptions {
  /** ISO instant every "now" reads (default DEFAULT_CLOCK). */
  clock?: string;
  /** Which scenarios are tasks (default: the 728 offline ones). */
  selection?: ScenarioSelection;
  /** Write each conversation's final databases here (`--dump-state`). */
  dumpStateDir?: string | null;
}

/** A scenario as a task of the exec run. */
export interface ToolSandboxTask extends ExecTask, ExecTaskView {
  firstUserMessage: string;
  policy: string;
  tools: ToolSpec[];
  criteria: ExecTask['criteria'] & { actions: ReferenceAction[] };
  scenario: Scenario;
  agentTools: AgentTools;
}

/** A session: ToolSandbox's message log and world, behind the environment interface. */
export class ToolSandboxEnvSession implements EnvironmentSession {
  constructor(
    readonly sandbox: ToolSandboxSession,
    private readonly names: Readonly<Record<string, string>>,
  ) {}

  callTool(name: string, args: unknown) {
    const [result] = this.sandbox.agentCalls([
      { id: `call_${this.sandbox.lastIndex + 1}`, name: this.names[name] ?? name, arguments: args },
    ]);
    return { content: result!.content, error: result!.error };
  }

  database(): DatabaseState {
    return stateOf(this.sandbox.context);
  }
}

/** The five databases as they stand (the message log's current snapshot included). */
export function stateOf(context: ExecutionContext): DatabaseState {
  const json = Object.fromEntries(NAMESPACES.map((ns) => [ns, context.getDatabase(ns)]));
  return {
    equals: (other) => JSON.stringify(other.toJson()) === JSON.stringify(json),
    differences: (expected) => differencesOf(expected.toJson(), json),
    toJson: () => json,
  };
}

function differencesOf(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
): DatabaseDifference[] {
  const out: DatabaseDifference[] = [];
  for (const ns of NAMESPACES) {
    const a = (expected[ns] ?? []) as unknown[];
    const b = (actual[ns] ?? []) as unknown[];
    for (let i = 0; i < Math.max(a.length, b.length); i += 1)
      if (JSON.stringify(a[i]) !== JSON.stringify(b[i]))
        out.push({ collection: ns, key: String(i), expected: a[i], actual: b[i] });
  }
  return out;
}

/** The scenario's evaluation at the clock: target timestamps moved as the databases were. */
function atClock(scenario: Scenario, delta: number): Scenario {
  if (delta === 0) return scenario;
  const { evaluation } = scenario;
  return {
    ...scenario,
    evaluation: {
      ...evaluation,
      milestones: shiftNodes(evaluation.milestones, delta),
      minefields: shiftNodes(evaluation.minefields, delta),
    },
  };
}

/** The system message to the agent and the last one to the user, and the user's first words. */
function openingOf(scenario: Scenario): { policy: string; task: string; first: string } {
  const log = scenario.startingContext().getDatabase('sandbox');
  const last = (sender: string, recipient: string) =>
    log.filter((row) => row.sender === sender && row.recipient === recipient).at(-1)?.content;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    policy: text(last('system', 'agent')),
    task: userTaskOf(text(last('system', 'user'))),
    first: text(last('user', 'agent')),
  };
}

function taskOf(scenario: Scenario, agentTools: AgentTools): ToolSandboxTask {
  const { policy, task, first } = openingOf(scenario);
  const inverse = new Map(Object.entries(agentTools.names).map(([shown, real]) => [real, shown]));
  const actions = referenceCalls(scenario.evaluation, (name) => inverse.get(name) ?? name);
  return {
    id: scenario.name,
    splits: [scenario.requiresNetwork ? 'network' : 'offline', 'all'],
    userScenario: { persona: null, instructions: task },
    criteria: { actions, communicateInfo: [], nlAssertions: [], rewardBasis: [] },
    purpose: null,
    firstUserMessage: first,
    policy,
    tools: agentTools.specs,
    scenario,
    agentTools,
  };
}

/** The agent's system text: the scenario's system message, and the plan in the plan modes. */
export function toolSandboxAgentSystem(policy: string, planBlock: string | null): string {
  return planBlock ? withPlan(policy, planBlock) : policy;
}

/** Plays a scenario's conversation with the model agent and ToolSandbox's user simulator. */
function converser(taskFor: (view: { id: string }) => ToolSandboxTask) {
  return async (input: ConverseInput): Promise<ConverseResult> => {
    const task = taskFor(input.task);
    const session = input.session as ToolSandboxEnvSession;
    const result = await playConversation({
      session: session.sandbox,
      agent: modelAgent({
        ...input.agent,
        system: toolSandboxAgentSystem(task.policy, input.planBlock),
        tools: task.tools,
      }),
      user: toolSandboxUser({ ...input.user, task: task.userScenario.instructions }),
      firstUserMessage: input.firstUserMessage,
      maxMessages: task.scenario.maxMessages,
      names: task.agentTools.names,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const promptVersions = {
      agent: TOOLSANDBOX_AGENT_PROMPT_VERSION,
      user: TOOLSANDBOX_USER_PROMPT_VERSION,
    };
    return { ...result, promptVersions };
  };
}

/** The ToolSandbox environment over the selected scenarios. */
export interface ToolSandboxEnvironment extends Environment {
  readonly tasks: ToolSandboxTask[];
  /** The clock, normalised to UTC (recorded in the manifest). */
  readonly clock: string;
  readonly promptVersions: { agent: string; user: string };
  converse(input: ConverseInput): Promise<ConverseResult>;
  /** ToolSandbox's evaluation of a finished conversation, as the exec run's reward. */
  evaluate: Evaluate;
}

/** Builds the environment (loading the scenario and tool files once). */
export function createToolSandboxEnvironment(
  options: ToolSandboxOptions = {},
): ToolSandboxEnvironment {
  const loaded = loadScenarios();
  const seconds = parseClock(options.clock ?? DEFAULT_CLOCK);
  const delta = seconds - parseClock(loaded.clock);
  const scenarios = delta === 0 ? loaded.scenarios : loadScenarios(undefined, delta).scenarios;
  const chosen = selectScenarios(scenarios, options.selection ?? { subset: 'offline' });
  const agentTools = loadAgentTools();
  const tasks = chosen.map((scenario) => {
    const tools = agentTools.get(scenario.name);
    if (!tools) throw new Error(`data/toolsandbox/tools.json: no tools for ${scenario.name}`);
    return taskOf(atClock(scenario, delta), tools);
  });
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const taskFor = (view: { id: string }) => {
    const task = byId.get(view.id);
    if (!task) throw new Error(`toolsandbox: no scenario ${view.id}`);
    return task;
  };
  return {
    id: 'toolsandbox',
    clock: clockText(seconds),
    promptVersions: {
      agent: TOOLSANDBOX_AGENT_PROMPT_VERSION,
      user: TOOLSANDBOX_USER_PROMPT_VERSION,
    },
    policy: '',
    tools: [],
    tasks,
    splits: {
      offline: tasks.filter((t) => !t.scenario.requiresNetwork).map((t) => t.id),
      all: tasks.map((t) => t.id),
    },
    toolKind: (name) => (TOOLS.has(name) ? 'generic' : undefined),
    openSession(view?: ExecTask) {
      if (!view) throw new Error('toolsandbox: a session needs its scenario');
      const task = taskFor(view);
      const context = task.scenario.startingContext();
      setClock(context, seconds);
      const sandbox = new ToolSandboxSession(context, offered(task.scenario, TOOLS));
      return new ToolSandboxEnvSession(sandbox, task.agentTools.names);
    },
    converse: converser(taskFor),
    evaluate: async ({ task: view, termination, session, mode, trial }) => {
      const task = taskFor(view);
      const context = (session as ToolSandboxEnvSession).sandbox.context;
      if (options.dumpStateDir)
        writeStateDump(options.dumpStateDir, task.id, context, mode && { mode, trial: trial ?? 0 });
      return scoreOf(task, context, termination);
    },
  };
}

/**
 * The exec run's reward record of a conversation: the similarity, and null after an infrastructure
 * error.
 */
export function scoreOf(
  task: ToolSandboxTask,
  context: ExecutionContext,
  termination: string,
): ReturnType<Evaluate> extends Promise<infer R> ? R : never {
  const result = evaluate(task.scenario.evaluation, context);
  const fields = recordFields(result, task.scenario.evaluation.milestones.length, 'user_stop');
  const failed = termination === 'infrastructure_error';
  return {
    reward: failed ? null : fields.similarity,
    reward_info: { db: null, communicate: null, action: null, nl_assertion: null },
    details: {
      milestone_mapping: result.milestoneMapping,
      minefield_mapping: result.minefieldMapping,
      milestone_similarity: result.milestoneSimilarity,
      minefield_similarity: result.minefieldSimilarity,
    },
    fields: {
      similarity: failed ? null : fields.similarity,
      milestone_similarities: fields.milestone_similarities,
      minefield_hit: fields.minefield_hit,
      turns: fields.turns,
    },
  };
}
