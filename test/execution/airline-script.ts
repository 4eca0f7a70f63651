/**
 * A scripted model behind the loopback fake for `apb exec` on tau2:airline tasks 3 and 19, playing every role: the
 * user simulator (a first message naming the task's marker, then ###STOP###), the planner (a draft, then a
 * revision), the critic, and an agent whose tool calls and last words depend on the plan it was shown. The script
 * knows each task's reference actions by test construction; no request carries them. What tau2's rules give for
 * each scripted conversation is derived by hand in `EXPECTED_REWARDS`.
 */
import { replies, type FakeReply, type RecordedRequest } from '../fake-server/index.js';
import { roleOf, type Role } from './scripted-model.js';

/** The tasks the script plays: 3 (read-only, COMMUNICATE "4") and 19 (cancel reservation Z7GOZK, DB). */
export const AIRLINE_TASKS = ['3', '19'] as const;
type TaskId = (typeof AIRLINE_TASKS)[number];
type Mode = 'direct' | 'plan-first' | 'refine';
type Call = { name: string; arguments: Record<string, unknown> };

const marker = (id: string) => `case-${id}-marker`;
const userLookup = (user_id: string): Call => ({
  name: 'get_user_details',
  arguments: { user_id },
});
const reservation = (reservation_id: string): Call => ({
  name: 'get_reservation_details',
  arguments: { reservation_id },
});
const cancel = (reservation_id: string): Call => ({
  name: 'cancel_reservation',
  arguments: { reservation_id },
});

/** What the agent does in each mode: its tool calls in order, then its last words. */
const AGENT: Record<TaskId, Record<Mode, { calls: Call[]; say: string }>> = {
  '3': {
    direct: {
      calls: [reservation('JMO1MG'), userLookup('anya_garcia_5901')],
      say: 'You can bring three suitcases.',
    },
    'plan-first': {
      calls: [reservation('JMO1MG'), userLookup('anya_garcia_5901')],
      say: 'Your reservation allows 4 suitcases in total.',
    },
    refine: {
      calls: [reservation('JMO1MG'), userLookup('anya_garcia_5901')],
      say: 'In total you may take 4 suitcases.',
    },
  },
  '19': {
    direct: {
      calls: [userLookup('olivia_gonzalez_2305')],
      say: 'I am sorry, I cannot change that flight.',
    },
    // The draft plan names the wrong reservation: the agent cancels THY2DG instead of Z7GOZK.
    'plan-first': {
      calls: [userLookup('olivia_gonzalez_2305'), cancel('THY2DG')],
      say: 'Your reservation is cancelled.',
    },
    refine: {
      calls: [userLookup('olivia_gonzalez_2305'), cancel('Z7GOZK')],
      say: 'Your reservation Z7GOZK is cancelled.',
    },
  },
};

const chain = (calls: Call[]) =>
  calls.map((call) => ({
    name: call.name,
    parameter_description: call.arguments,
    reason: 'needed',
  }));
const DRAFT: Record<TaskId, Call[]> = {
  '3': [reservation('JMO1MG')],
  '19': [userLookup('olivia_gonzalez_2305'), cancel('THY2DG')],
};
/** The revisions are the tasks' reference chains. */
const REVISED: Record<TaskId, Call[]> = {
  '3': [reservation('JMO1MG'), userLookup('anya_garcia_5901')],
  '19': [cancel('Z7GOZK')],
};

/**
 * tau2's reward for each scripted conversation, by hand (both tasks' basis is DB × COMMUNICATE):
 * - 3: only lookups, so the final database equals the expected one (DB 1); COMMUNICATE needs "4" in an agent text
 *   message: absent in direct (0), present in plan-first and refine (1).
 * - 19: the expected database has Z7GOZK cancelled; direct cancels nothing and plan-first cancels THY2DG (DB 0),
 *   refine cancels Z7GOZK (DB 1); COMMUNICATE has nothing to check (1).
 */
export const EXPECTED_REWARDS: Record<TaskId, Record<Mode, number>> = {
  '3': { direct: 0, 'plan-first': 1, refine: 1 },
  '19': { direct: 0, 'plan-first': 0, refine: 1 },
};

/** Which task a request is about (the marker of the first user message, or the scenario the user simulator plays). */
export function airlineTaskOf(
  request: RecordedRequest,
  instructionsOf: (id: string) => string,
): TaskId | null {
  const text = request.parsed!.text;
  return (
    AIRLINE_TASKS.find((id) => text.includes(marker(id)) || text.includes(instructionsOf(id))) ??
    null
  );
}

/** The mode an agent request runs in, read from the plan in its system text. */
export function agentModeOf(request: RecordedRequest): Mode {
  const system = request.parsed!.messages[0]?.text ?? '';
  return system.includes('REVISED')
    ? 'refine'
    : system.includes('<plan>')
      ? 'plan-first'
      : 'direct';
}

/** A request described for the test's own fault injection and counting. */
export interface ScriptedCall {
  role: Role;
  task: TaskId | null;
  /** Agent requests: the mode; user requests: `first` for the opening message. */
  detail: string | null;
}

/** Describes a request (role, task, and the mode or the opening). */
export function describeCall(
  request: RecordedRequest,
  instructionsOf: (id: string) => string,
): ScriptedCall {
  const role = roleOf(request);
  const task = airlineTaskOf(request, instructionsOf);
  const own = request.parsed!.messages.filter((message) => message.role === 'assistant').length;
  return {
    role,
    task,
    detail: role === 'agent' ? agentModeOf(request) : role === 'user' && own === 0 ? 'first' : null,
  };
}

/** The scripted reply to any request of the run. */
export function respondAsAirlineModels(
  request: RecordedRequest,
  instructionsOf: (id: string) => string,
): FakeReply {
  const { role, task } = describeCall(request, instructionsOf);
  if (!task) return replies.text('unknown task');
  const parsed = request.parsed!;
  if (role === 'user')
    return replies.text(
      parsed.messages.some((message) => message.role === 'assistant')
        ? '###STOP###'
        : `Hello, about ${marker(task)}: I need help with my trip.`,
    );
  if (role === 'draft')
    return replies.json({
      plan: 'DRAFT: look the reservation up and act on it.',
      tool_chain: chain(DRAFT[task]),
    });
  if (role === 'revision')
    return replies.json({
      plan: 'REVISED: the reference chain.',
      tool_chain: chain(REVISED[task]),
    });
  if (role === 'critique')
    return replies.text('The draft acts on the wrong reservation or stops early (E2).');
  const script = AGENT[task][agentModeOf(request)];
  const done = parsed.messages.filter((message) => message.role === 'tool').length;
  const next = script.calls[done];
  return next ? replies.toolCalls(next) : replies.text(script.say);
}
