/**
 * tau2-bench's reward for a text conversation (its `evaluate_simulation` with `EvaluationType.ALL`,
 * half duplex): DB (the final database against the one the task's reference actions leave on a
 * fresh copy), ENV_ASSERTION (each of the task's environment assertions run on the final state,
 * compared with its `assert_value`: telecom), COMMUNICATE, ACTION (the reference actions among the
 * agent's and the user's tool calls) and NL_ASSERTION, multiplied over the task's reward basis. A
 * conversation that did not end with `agent_stop` or `user_stop` scores 0 unevaluated. Choices where
 * tau2 is silent or lenient are in docs/execution.md ("The reward").
 */
import type {
  EnvAssertionCheck,
  DatabaseDifference,
  DatabaseState,
  Environment,
  ExecMessage,
  ExecTask,
  ReferenceAction,
  Termination,
} from './environment.js';
import type { NlAssertionJudge, NlAssertionCheck } from './nl-assertions.js';
import { pyEquals } from './environments/tau2/python.js';

/** The reward components of one execution: 1 or 0 each, null where not in the basis or not evaluated. */
export interface RewardInfo {
  db: 0 | 1 | null;
  /** ENV_ASSERTION (present for environments with assertions: telecom). */
  env_assertion?: 0 | 1 | null;
  communicate: 0 | 1 | null;
  action: 0 | 1 | null;
  nl_assertion: 0 | 1 | null;
  /** With NL assertions left unjudged: the reward they would allow (the product of the other components). */
  reward_if_nl_met?: number;
}

/** Why each component came out as it did (every check is computed, in the basis or not, as tau2 does). */
export interface RewardDetails {
  /** Set when the conversation was not evaluated (premature termination) or had nothing to check. */
  note: string | null;
  /** Entities where the final database differs from the expected one (empty when equal or not compared). */
  db_differences: DatabaseDifference[];
  communicate_checks: { info: string; met: boolean }[];
  action_checks: { action_id: string; name: string; met: boolean }[];
  /** The environment assertions' outcomes (telecom; absent where the environment has none). */
  env_assertion_checks?: EnvAssertionCheck[];
  /** `not_needed` (not in the basis, or no assertion), `judged`, `not_evaluated` (no judge), `judge_error`. */
  nl_status: 'not_needed' | 'judged' | 'not_evaluated' | 'judge_error';
  nl_checks: NlAssertionCheck[];
  nl_error: string | null;
}

/** The reward of one execution; `reward` is null when NL assertions in the basis were not judged, or after an infrastructure error. */
export interface RewardResult {
  reward: number | null;
  reward_info: RewardInfo;
  details: RewardDetails;
}

/** What the reward reads of an execution. */
export interface RewardInput {
  environment: Environment;
  task: ExecTask;
  messages: ExecMessage[];
  termination: Termination;
  finalDatabase: DatabaseState;
  /** Judges NL assertions; without one they are reported as not evaluated. */
  nlJudge?: NlAssertionJudge;
  signal?: AbortSignal;
}

const expectedCache = new WeakMap<Environment, Map<string, DatabaseState>>();

/** The database the task's reference actions leave on a fresh copy (failing actions included, as tau2 runs them); cached per task. */
export function expectedDatabase(environment: Environment, task: ExecTask): DatabaseState {
  let byTask = expectedCache.get(environment);
  if (!byTask) expectedCache.set(environment, (byTask = new Map()));
  const cached = byTask.get(task.id);
  if (cached) return cached;
  if (environment.referenceDatabase) {
    const reference = environment.referenceDatabase(task);
    byTask.set(task.id, reference);
    return reference;
  }
  const session = environment.openSession();
  // tau2 sends user-requested actions to the user's toolkit, which neither domain has: they fail, changing nothing.
  for (const action of task.criteria.actions ?? [])
    if (action.requestor === 'assistant') session.callTool(action.name, action.arguments);
  const database = session.database();
  byTask.set(task.id, database);
  return database;
}

/** tau2's COMMUNICATE check: each string, lower-cased, inside some agent message lower-cased with commas removed. */
export function communicateChecks(
  infos: string[],
  messages: ExecMessage[],
): { info: string; met: boolean }[] {
  const texts = messages.flatMap((message) =>
    message.role === 'assistant' && message.content && message.content.trim()
      ? [message.content.toLowerCase().replace(/,/g, '')]
      : [],
  );
  return infos.map((info) => ({
    info,
    met: texts.some((text) => text.includes(info.toLowerCase())),
  }));
}

/** tau2's `Action.compare_with_tool_call`: same name, and equal on `compare_args` (all the call's own arguments when null). */
export function actionMatches(
  action: ReferenceAction,
  call: { name: string; arguments: unknown },
): boolean {
  if (action.name !== call.name) return false;
  // A call whose arguments are not an object cannot exist in tau2 (its ToolCall requires a dict): no match.
  if (
    call.arguments === null ||
    typeof call.arguments !== 'object' ||
    Array.isArray(call.arguments)
  )
    return false;
  const given = call.arguments as Record<string, unknown>;
  const keys = action.compareArgs ?? Object.keys(given);
  if (keys.length === 0) return true;
  const pick = (source: Record<string, unknown>) =>
    Object.fromEntries(
      keys.filter((key) => Object.hasOwn(source, key)).map((key) => [key, source[key]]),
    );
  return pyEquals(pick(given), pick(action.arguments));
}

function actionChecks(
  actions: ReferenceAction[],
  messages: ExecMessage[],
): RewardDetails['action_checks'] {
  // tau2 looks for the reference actions among the agent's and the user's tool calls alike.
  const calls = messages.flatMap((message) =>
    message.role === 'assistant' || message.role === 'user' ? (message.tool_calls ?? []) : [],
  );
  return actions.map((action) => ({
    action_id: action.actionId,
    name: action.name,
    met: calls.some((call) => actionMatches(action, call)),
  }));
}

const bit = (met: boolean): 0 | 1 => (met ? 1 : 0);

function unevaluated(note: string, reward: 0 | null): RewardResult {
  return {
    reward,
    reward_info: { db: null, communicate: null, action: null, nl_assertion: null },
    details: {
      note,
      db_differences: [],
      communicate_checks: [],
      action_checks: [],
      nl_status: 'not_needed',
      nl_checks: [],
      nl_error: null,
    },
  };
}

/** The components computed without a judge (DB, ENV_ASSERTION, COMMUNICATE, ACTION) and their product. */
function checkedComponents(input: RewardInput): {
  info: RewardInfo;
  details: RewardDetails;
  others: number;
} {
  const { task, messages } = input;
  const basis = new Set(task.criteria.rewardBasis);
  const criteria = task.criteria;
  // tau2 scores the environment 1 without comparing when the task lists neither actions nor env
  // assertions (null, not []).
  const assertions = criteria.envAssertions ?? null;
  const compared = criteria.actions !== null || assertions !== null;
  const expected = compared ? expectedDatabase(input.environment, task) : null;
  const dbMatch = expected ? input.finalDatabase.equals(expected) : true;
  const communicate = communicateChecks(criteria.communicateInfo, messages);
  const actions = actionChecks(criteria.actions ?? [], messages);
  const envChecks =
    compared && assertions && input.environment.checkEnvAssertions
      ? input.environment.checkEnvAssertions(task, input.finalDatabase)
      : [];
  const details: RewardDetails = {
    note: null,
    db_differences: expected && !dbMatch ? input.finalDatabase.differences(expected) : [],
    communicate_checks: communicate,
    action_checks: actions,
    ...(assertions ? { env_assertion_checks: envChecks } : {}),
    nl_status: 'not_needed',
    nl_checks: [],
    nl_error: null,
  };
  const envAssertion = basis.has('ENV_ASSERTION') ? bit(envChecks.every((c) => c.met)) : null;
  const info: RewardInfo = {
    db: basis.has('DB') ? bit(dbMatch) : null,
    ...(assertions || basis.has('ENV_ASSERTION') ? { env_assertion: envAssertion } : {}),
    communicate: basis.has('COMMUNICATE') ? bit(communicate.every((check) => check.met)) : null,
    action: basis.has('ACTION') ? bit(actions.every((check) => check.met)) : null,
    nl_assertion: null,
  };
  const others = [info.db, info.env_assertion, info.communicate, info.action].reduce<number>(
    (product, value) => product * (value ?? 1),
    1,
  );
  return { info, details, others };
}

/** Computes tau2's reward for one finished conversation. */
export async function computeReward(input: RewardInput): Promise<RewardResult> {
  const { task, messages } = input;
  if (input.termination === 'infrastructure_error')
    return unevaluated(
      'Not evaluated: a model call failed after its retries (infrastructure_error)',
      null,
    );
  if (input.termination !== 'agent_stop' && input.termination !== 'user_stop')
    return unevaluated(
      `Simulation terminated prematurely. Termination reason: ${input.termination}`,
      0,
    );
  const basis = new Set(task.criteria.rewardBasis);
  const criteria = task.criteria;
  const { info, details, others } = checkedComponents(input);
  if (!basis.has('NL_ASSERTION')) return { reward: others, reward_info: info, details };
  if (criteria.nlAssertions.length === 0)
    return { reward: others, reward_info: { ...info, nl_assertion: 1 }, details };
  if (!input.nlJudge)
    return {
      reward: null,
      reward_info: { ...info, reward_if_nl_met: others },
      details: { ...details, nl_status: 'not_evaluated' },
    };
  const judged = await input.nlJudge.judge(
    { assertions: criteria.nlAssertions, messages },
    input.signal,
  );
  if (!judged.ok)
    return {
      reward: null,
      reward_info: { ...info, reward_if_nl_met: others },
      details: { ...details, nl_status: 'judge_error', nl_error: judged.reason },
    };
  const met = bit(judged.checks.every((check) => check.met));
  return {
    reward: others * met,
    reward_info: { ...info, nl_assertion: met },
    details: { ...details, nl_status: 'judged', nl_checks: judged.checks },
  };
}
