/**
 * The oracle baseline: replays the reference answer in the planner's answer format. A sanity
 * ceiling for the checks and the judges, not a planner: it reads `caseItem.reference`.
 */
import type { Case, ReferenceStep, ToolCall } from '../dataset/case.js';
import {
  holisticAnswer,
  rejectAnswer,
  stepsAnswer,
  type StepNode,
  type BaselinePlanner,
} from './baseline.js';

function stepOf(step: ReferenceStep): StepNode {
  // A reference step with several calls is replayed with its first: the answer format has one tool per step.
  const call = step.toolCalls[0];
  const thought = step.text ?? step.reason ?? 'reference step';
  return call
    ? { thought, tool: call.name, arguments: call.arguments ?? {} }
    : { thought, tool: null, arguments: {}, content: thought };
}

/** The last call of the broken tool in the executed prefix, whose arguments the replacement takes over. */
function brokenCall(caseItem: Case): ToolCall | undefined {
  const calls = caseItem.input.trajectoryPrefix.flatMap((message) => message.toolCalls);
  return calls.filter((call) => call.name === caseItem.reference.brokenToolName).at(-1);
}

function stepWiseOracle(caseItem: Case): string {
  const { groundTruthSteps, replacementTool } = caseItem.reference;
  if (groundTruthSteps.length > 0) return stepsAnswer(groundTruthSteps.map(stepOf));
  // Tool-broken cases may carry no ground-truth step; the designated replacement is the reference behaviour.
  if (replacementTool) {
    return stepsAnswer([
      {
        thought: 'switch to the replacement tool',
        tool: replacementTool.name,
        arguments: brokenCall(caseItem)?.arguments ?? {},
      },
    ]);
  }
  return stepsAnswer([{ thought: 'the reference has no next step', tool: null, arguments: {} }]);
}

function holisticOracle(caseItem: Case): string {
  const { plan, toolChain } = caseItem.reference;
  const nodes = toolChain.map((call) => ({
    name: call.name,
    parameter_description: call.arguments ?? {},
    reason: call.reason ?? '',
  }));
  return holisticAnswer(
    plan ?? toolChain.map((call, index) => `${index + 1}. ${call.name}`).join('\n'),
    nodes,
  );
}

/** Replays the reference: the chain (holistic), the ground-truth steps (step-wise), or REJECT (unsolvable). */
export const oracleBaseline: BaselinePlanner = {
  id: 'oracle',
  description:
    'oracle baseline: replays the reference answer (a ceiling for the judges, not a planner)',
  answer(caseItem) {
    if (caseItem.split === 'holistic_unsolvable') {
      const explanation = caseItem.reference.plan?.trim();
      return rejectAnswer(
        explanation ||
          `the reference marks this task unsolvable (${caseItem.reference.unsolvableType ?? 'unknown type'})`,
      );
    }
    return caseItem.input.regime === 'Step-wise'
      ? stepWiseOracle(caseItem)
      : holisticOracle(caseItem);
  },
};
