/**
 * A scripted fake for Table 3 over several tau2 domains, generic over tasks. Two models answer at
 * the loopback fake: the tested model (`fake-agent`: agent, planner, reviser, critic) and the judge
 * model (`fake-judge`: the user simulator by default, the APB plan judge, the NL-assertion judge).
 * The agent does nothing without a plan, carries out the first reference action under the draft,
 * and every assistant reference action, then the task's required information, under the revised
 * plan; the user carries out the task's user actions (telecom) and stops. The plan judge calls a
 * plan correct exactly when it is the revised one; the NL judge says every assertion is met. The
 * script finds the task by the marker in the user's first message (or the scenario's text); no
 * request carries a reference to the model.
 */
import type { Environment, ExecTask } from '../../src/execution/environment.js';
import { replies, type FakeReply, type RecordedRequest } from '../fake-server/index.js';
import { PLANNER_MARK, USER_MARK } from './scripted-model.js';

export const MODELS = { agent: 'fake-agent', judge: 'fake-judge' } as const;
const NL_MARK = 'You check a customer-service conversation';

/** Every selected task of every environment, findable by its marker or its scenario. */
export class TaskIndex {
  private readonly byMarker = new Map<string, ExecTask>();
  private readonly scenarios: Array<[string, ExecTask]> = [];

  constructor(environments: ReadonlyArray<{ environment: Environment; ids: readonly string[] }>) {
    for (const { environment, ids } of environments)
      for (const id of ids) {
        const task = environment.tasks.find((candidate) => candidate.id === id)!;
        this.byMarker.set(TaskIndex.marker(environment.id, id), task);
        this.scenarios.push([task.userScenario.instructions, task]);
      }
  }

  static marker(env: string, id: string): string {
    return `case<<${env}|${id}>>`;
  }

  find(text: string): { task: ExecTask; marker: string } | null {
    const found = /case<<.+?>>/.exec(text)?.[0];
    if (found && this.byMarker.has(found))
      return { task: this.byMarker.get(found)!, marker: found };
    for (const [instructions, task] of this.scenarios)
      if (text.includes(instructions))
        for (const [marker, candidate] of this.byMarker)
          if (candidate === task) return { task, marker };
    return null;
  }
}

const of = (task: ExecTask, who: 'user' | 'assistant') =>
  (task.criteria.actions ?? []).filter((action) => action.requestor === who);

function userTurn(request: RecordedRequest, task: ExecTask, marker: string): FakeReply {
  const parsed = request.parsed!;
  if (parsed.messages.every((message) => message.role !== 'assistant'))
    return replies.text(`Hello, about ${marker}: I need some help.`);
  const done = parsed.messages.filter((message) => message.role === 'tool').length;
  const next = parsed.tools.length > 0 ? of(task, 'user')[done] : undefined;
  if (next) return replies.toolCalls({ name: next.name, arguments: next.arguments });
  return replies.text('Thank you. ###STOP###');
}

function agentTurn(request: RecordedRequest, task: ExecTask): FakeReply {
  const parsed = request.parsed!;
  const system = parsed.messages[0]?.text ?? '';
  const actions = of(task, 'assistant');
  const done = parsed.messages.filter((message) => message.role === 'tool').length;
  const budget = system.includes('REVISED') ? actions.length : system.includes('DRAFT') ? 1 : 0;
  const next = done < budget ? actions[done] : undefined;
  if (next) return replies.toolCalls({ name: next.name, arguments: next.arguments });
  const said = budget === actions.length ? task.criteria.communicateInfo.join('; ') : '';
  return replies.text(`Done. ${said}`.trim());
}

function planJudgeTurn(request: RecordedRequest): FakeReply {
  const text = request.parsed!.text;
  const answer = text.slice(text.lastIndexOf('=== PLANNER ANSWER'));
  const right = answer.includes('REVISED');
  const errors = { E1: false, E2: !right, E3: false, E4: false, E5: false, E6: false };
  return replies.json({
    reasoning: right ? 'the whole chain' : 'stops early',
    errors,
    is_correct: right,
    grade: right ? 1 : 0.4,
  });
}

function nlJudgeTurn(request: RecordedRequest): FakeReply {
  const text = request.parsed!.text;
  const outcomes = text.slice(text.lastIndexOf('Expected outcomes:')).split('\n').slice(1);
  return replies.json({
    results: outcomes
      .filter((line) => /^\d+\. /.test(line))
      .map((line) => ({
        expectedOutcome: line.replace(/^\d+\. /, ''),
        reasoning: 'met',
        metExpectation: true,
      })),
  });
}

/** The reply to any request of the run. */
export function table3Respond(index: TaskIndex) {
  return (request: RecordedRequest): FakeReply => {
    const parsed = request.parsed!;
    const system = parsed.messages[0]?.text ?? '';
    if (system.startsWith(NL_MARK)) return nlJudgeTurn(request);
    const found = index.find(parsed.text);
    if (system.startsWith(USER_MARK))
      return found ? userTurn(request, found.task, found.marker) : replies.text('###STOP###');
    if (parsed.model === MODELS.judge) return planJudgeTurn(request);
    if (!found) return replies.text('unknown task');
    const chain = (calls: ReturnType<typeof of>) =>
      calls.map((action) => ({
        name: action.name,
        parameter_description: action.arguments,
        reason: 'needed',
      }));
    if (system.includes(PLANNER_MARK) || parsed.text.includes(PLANNER_MARK)) {
      const revision = parsed.messages.some((message) => message.role === 'assistant');
      const actions = of(found.task, 'assistant');
      return revision
        ? replies.json({ plan: 'REVISED: the whole chain.', tool_chain: chain(actions) })
        : replies.json({ plan: 'DRAFT: the first step.', tool_chain: chain(actions.slice(0, 1)) });
    }
    if (parsed.tools.length === 0) return replies.text('The draft stops after one step (E2).');
    return agentTurn(request, found.task);
  };
}
