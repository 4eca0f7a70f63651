/**
 * `tau2:telecom`: tau2-bench's telecom domain, where control is dual — the agent works on the
 * account (`TelecomTools`) and the user on their own phone (`TelecomUserTools`, run by the user
 * simulator). A session starts from both databases with the task's initialisation actions
 * applied, and after every call the account's state is synced to the phone, as tau2 does.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type {
  DatabaseState,
  EnvAssertionCheck,
  Environment,
  EnvironmentSession,
  ExecTask,
  ToolKind,
  ToolSpec,
} from '../../../environment.js';
import { freezeCollections } from '../database.js';
import { readJson, tau2DataDir, ToolSpecs } from '../domain.js';
import { parseTasks, TaskSplits } from '../tasks.js';
import { callTool, type Toolkit } from '../toolkit.js';
import { TELECOM_READ_TOOLS } from './accounts.js';
import { TELECOM_WRITE_TOOLS } from './line-writes.js';
import { TelecomDb, TelecomUserDb, type TelecomState } from './model.js';
import { runEnvFunction, syncTools } from './scenario.js';
import { TelecomDatabase } from './state.js';
import { TELECOM_USER_TOOLS } from './user-tools.js';
import { TELECOM_USER_GUIDELINES } from './user-guidelines.js';

const AGENT_TOOLKIT: Toolkit<TelecomState> = {
  className: 'TelecomTools',
  tools: { ...TELECOM_READ_TOOLS, ...TELECOM_WRITE_TOOLS },
};
const USER_TOOLKIT: Toolkit<TelecomState> = {
  className: 'TelecomUserTools',
  tools: TELECOM_USER_TOOLS,
};

/** tau2's telecom system prompt: the main policy, then the tech-support manual, each in its own tag. */
export function telecomPolicy(mainPolicy: string, manual: string): string {
  return `<main_policy>\n${mainPolicy}\n</main_policy>\n<tech_support_policy>\n${manual}\n</tech_support_policy>`;
}

function toolSpecs(file: string, toolkit: Toolkit<TelecomState>): ToolSpec[] {
  const tools = ToolSpecs.parse(readJson(file)) as ToolSpec[];
  const listed = tools.map((tool) => tool.name).sort();
  const implemented = Object.keys(toolkit.tools).sort();
  if (listed.join() !== implemented.join())
    throw new Error(
      `${file} lists ${listed.join(', ')} but ${toolkit.className} has ${implemented.join(', ')}`,
    );
  return tools;
}

/** A fresh state with the task's initialisation actions applied, each followed by a sync (tau2's `set_state`). */
function initialState(
  base: { agent: TelecomDb; user: TelecomUserDb },
  task?: ExecTask,
): TelecomState {
  const state: TelecomState = { ...structuredClone(base), billCounter: 0 };
  for (const action of task?.initializationActions ?? []) {
    try {
      runEnvFunction(state, action.envType, action.funcName, action.arguments);
    } catch (error) {
      throw new Error(
        `tau2:telecom task ${task!.id}: initialization action ${action.funcName} failed: ${(error as Error).message}`,
      );
    }
    syncTools(state);
  }
  syncTools(state);
  return state;
}

function session(state: TelecomState): EnvironmentSession {
  const run = (toolkit: Toolkit<TelecomState>, name: string, args: unknown) => {
    const outcome = callTool(toolkit, state, name, args);
    // tau2 syncs after every successful call and again after every step: after every call is the same state.
    syncTools(state);
    return outcome;
  };
  return {
    callTool: (name, args) => run(AGENT_TOOLKIT, name, args),
    callUserTool: (name, args) => run(USER_TOOLKIT, name, args),
    database: () => new TelecomDatabase(state),
  };
}

/** tau2's gold environment: initialisation, then every reference action on its side, without syncs in between. */
function referenceState(
  base: { agent: TelecomDb; user: TelecomUserDb },
  task: ExecTask,
): TelecomState {
  const state = initialState(base, task);
  for (const action of task.criteria.actions ?? [])
    callTool(
      action.requestor === 'user' ? USER_TOOLKIT : AGENT_TOOLKIT,
      state,
      action.name,
      action.arguments,
    );
  return state;
}

function checkAssertions(task: ExecTask, finalDatabase: DatabaseState): EnvAssertionCheck[] {
  if (!(finalDatabase instanceof TelecomDatabase))
    throw new Error('tau2:telecom assertions need a telecom session database');
  const state = structuredClone(finalDatabase.state);
  return (task.criteria.envAssertions ?? []).map((assertion) => {
    const check = {
      env_type: assertion.envType,
      func_name: assertion.funcName,
      arguments: assertion.arguments,
      assert_value: assertion.assertValue,
    };
    try {
      const result = runEnvFunction(
        state,
        assertion.envType,
        assertion.funcName,
        assertion.arguments,
      );
      syncTools(state);
      if (typeof result !== 'boolean')
        return {
          ...check,
          met: false,
          error: `Function ${assertion.funcName} did not return a bool`,
        };
      return { ...check, met: result === assertion.assertValue };
    } catch (error) {
      return { ...check, met: false, error: (error as Error).message };
    }
  });
}

/** Loads the telecom environment (call once and keep it: the 2,285 tasks are parsed here). */
export function createTelecomEnvironment(): Environment {
  const dir = tau2DataDir('telecom');
  const base = freezeCollections({
    agent: TelecomDb.parse(readJson(`${dir}db.json`)),
    user: TelecomUserDb.parse(readJson(`${dir}user_db.json`)),
  } as never) as unknown as { agent: TelecomDb; user: TelecomUserDb };
  const splits = TaskSplits.parse(readJson(`${dir}split_tasks.json`));
  const tasksFile = `${dir}tasks.json.gz`;
  const tasks = parseTasks(
    tasksFile,
    JSON.parse(gunzipSync(readFileSync(tasksFile)).toString('utf8')),
    splits,
  );
  const userKinds = (name: string): ToolKind | undefined =>
    Object.hasOwn(TELECOM_USER_TOOLS, name) ? TELECOM_USER_TOOLS[name]!.kind : undefined;
  return {
    id: 'tau2:telecom',
    policy: telecomPolicy(
      readFileSync(`${dir}main_policy.md`, 'utf8'),
      readFileSync(`${dir}tech_support_manual.md`, 'utf8'),
    ),
    tools: toolSpecs(`${dir}tools.json`, AGENT_TOOLKIT),
    userTools: toolSpecs(`${dir}user_tools.json`, USER_TOOLKIT),
    userToolGuidelines: TELECOM_USER_GUIDELINES,
    tasks,
    splits,
    toolKind: (name) =>
      Object.hasOwn(AGENT_TOOLKIT.tools, name) ? AGENT_TOOLKIT.tools[name]!.kind : userKinds(name),
    openSession: (task) => session(initialState(base, task)),
    referenceDatabase: (task) => new TelecomDatabase(referenceState(base, task)),
    checkEnvAssertions: checkAssertions,
  };
}
