/**
 * tau2's task files (`tasks.json`, `split_tasks.json`) → `ExecTask`s: the zod schema of the parts
 * apb reads, the user scenario rendered as tau2's `str(task.user_scenario)` (what its user
 * simulator is given), and the evaluation criteria with tau2's defaults.
 */
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import type {
  EnvFunctionCall,
  EvaluationCriteria,
  ExecTask,
  RewardComponent,
} from '../../environment.js';
import { REWARD_COMPONENTS } from '../../environment.js';

const optionalText = z.string().nullable().optional();

const Instructions = z.union([
  z.string(),
  z.object({
    domain: z.string(),
    reason_for_call: z.string(),
    known_info: optionalText,
    unknown_info: optionalText,
    task_instructions: z.string(),
  }),
]);

const Action = z.object({
  action_id: z.string(),
  requestor: z.enum(['assistant', 'user']).default('assistant'),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  compare_args: z.array(z.string()).nullable().optional(),
});

const EnvCall = z.object({
  env_type: z.enum(['assistant', 'user']),
  func_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});
const EnvAssertion = EnvCall.extend({
  assert_value: z.boolean().default(true),
  message: z.string().nullable().optional(),
});

const Task = z.object({
  id: z.string(),
  description: z.object({ purpose: optionalText }).nullable().optional(),
  user_scenario: z.object({ persona: optionalText, instructions: Instructions }),
  // Only initialisation actions are supported (no task of the three domains sets data or a history).
  initial_state: z
    .object({
      initialization_data: z.null().optional(),
      initialization_actions: z.array(EnvCall).nullable().optional(),
      message_history: z.null().optional(),
    })
    .nullable()
    .optional(),
  evaluation_criteria: z
    .object({
      actions: z.array(Action).nullable().optional(),
      env_assertions: z.array(EnvAssertion).nullable().optional(),
      communicate_info: z.array(z.string()).nullable().optional(),
      nl_assertions: z.array(z.string()).nullable().optional(),
      reward_basis: z.array(z.enum(REWARD_COMPONENTS)).default(['DB', 'COMMUNICATE']),
    })
    .nullable()
    .optional(),
});

/** tau2's task split file: split name → task ids. */
export const TaskSplits = z.record(z.string(), z.array(z.string()));

/** Python's `textwrap.indent(text, '\t')`: a tab before every line that is not blank. */
function indent(text: string): string {
  return text.replace(/^(?=.*\S)/gm, '\t');
}

/** `str(task.user_scenario)` as tau2 writes it. */
export function renderUserScenario(
  persona: string | null,
  instructions: z.infer<typeof Instructions>,
): string {
  const lines: string[] = [];
  if (persona !== null) lines.push('Persona:', indent(persona));
  let body: string;
  if (typeof instructions === 'string') body = instructions;
  else {
    const parts = [
      `Domain: ${instructions.domain}`,
      `Reason for call:\n${indent(instructions.reason_for_call)}`,
    ];
    if (instructions.known_info != null)
      parts.push(`Known info:\n${indent(instructions.known_info)}`);
    if (instructions.unknown_info != null)
      parts.push(`Unknown info:\n${indent(instructions.unknown_info)}`);
    parts.push(`Task instructions:\n${indent(instructions.task_instructions)}`);
    body = parts.join('\n');
  }
  lines.push('Instructions:', indent(body));
  return lines.join('\n');
}

function criteriaOf(task: z.infer<typeof Task>): EvaluationCriteria {
  const criteria = task.evaluation_criteria;
  // A task without criteria scores 1.0 in tau2; an empty basis makes the product 1 here too.
  if (!criteria) return { actions: null, communicateInfo: [], nlAssertions: [], rewardBasis: [] };
  return {
    actions: criteria.actions
      ? criteria.actions.map((action) => ({
          actionId: action.action_id,
          requestor: action.requestor,
          name: action.name,
          arguments: action.arguments,
          compareArgs: action.compare_args ?? null,
        }))
      : null,
    communicateInfo: criteria.communicate_info ?? [],
    nlAssertions: criteria.nl_assertions ?? [],
    rewardBasis: criteria.reward_basis as RewardComponent[],
    envAssertions: criteria.env_assertions
      ? criteria.env_assertions.map((assertion) => ({
          ...envCall(assertion),
          assertValue: assertion.assert_value,
          message: assertion.message ?? null,
        }))
      : null,
  };
}

function envCall(call: z.infer<typeof EnvCall>): EnvFunctionCall {
  return { envType: call.env_type, funcName: call.func_name, arguments: call.arguments };
}

/** Parses a tau2 `tasks.json` and its split file into tasks (file order kept). */
export function parseTasks(
  file: string,
  tasksJson: unknown,
  splits: Record<string, string[]>,
): ExecTask[] {
  const parsed = z.array(Task).safeParse(tasksJson);
  if (!parsed.success) {
    throw new InputError(
      parsed.error.issues.map((issue) => ({
        file,
        line: 1,
        field: issue.path.map(String).join('.'),
        message: issue.message,
      })),
    );
  }
  const members = Object.entries(splits).map(([name, ids]) => [name, new Set(ids)] as const);
  return parsed.data.map((task) => ({
    id: task.id,
    splits: members.filter(([, ids]) => ids.has(task.id)).map(([name]) => name),
    userScenario: {
      persona: task.user_scenario.persona ?? null,
      instructions: renderUserScenario(
        task.user_scenario.persona ?? null,
        task.user_scenario.instructions,
      ),
    },
    criteria: criteriaOf(task),
    purpose: task.description?.purpose ?? null,
    ...(task.initial_state?.initialization_actions
      ? { initializationActions: task.initial_state.initialization_actions.map(envCall) }
      : {}),
  }));
}
