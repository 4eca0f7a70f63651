/** Renders a case's reference for the judge: only the parts that apply to its split. */
import type { Case, ReferenceStep, Tool, ToolCall } from '../dataset/case.js';
import { UNSOLVABLE_CRITERIA } from './prompts/unsolvable.js';

/** Version of how the REFERENCE block is rendered; part of every paper-protocol judge prompt version. */
export const REFERENCE_RENDERING =
  'reference-rendering@2: a recorded unsolvable plan without an empty chain; a step reason said once';

function callText(call: ToolCall): string {
  const args =
    typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
  return `${call.name}(${args})${call.reason ? ` — ${call.reason}` : ''}`;
}

function chainText(chain: ToolCall[]): string {
  return chain.length === 0
    ? '(none recorded)'
    : chain.map((call, index) => `${index + 1}. ${callText(call)}`).join('\n');
}

function stepText(step: ReferenceStep): string {
  const pieces: string[] = step.toolCalls.map(callText);
  if (step.text) pieces.push(`says: ${step.text}`);
  // A chain node's reason is already printed after its call; say it once.
  if (step.reason && !step.toolCalls.some((call) => call.reason === step.reason))
    pieces.push(`because: ${step.reason}`);
  return pieces.length > 0 ? pieces.join('; ') : '(an empty step)';
}

function stepsText(steps: ReferenceStep[]): string {
  return steps.length === 0
    ? '(none recorded)'
    : steps.map((step, index) => `${index + 1}. ${stepText(step)}`).join('\n');
}

function toolText(tool: Tool): string {
  return JSON.stringify({
    name: tool.name,
    description: tool.description,
    ...(tool.parameters ? { parameters: tool.parameters } : {}),
  });
}

/** Total cost of a chain under the case's tool costs; null when a called tool has no cost. */
export function chainCost(kase: Case, chain: ToolCall[]): number | null {
  const costs = new Map(kase.input.tools.map((tool) => [tool.name, tool.cost]));
  let total = 0;
  for (const call of chain) {
    const cost = costs.get(call.name);
    if (cost === undefined) return null;
    total += cost;
  }
  return total;
}

function holisticReference(kase: Case): string[] {
  const { reference } = kase;
  const sections = [
    `Reference plan:\n${reference.plan ?? '(none recorded)'}`,
    `Reference tool chain:\n${chainText(reference.toolChain)}`,
  ];
  if (kase.split === 'holistic_efficiency') {
    const cost = chainCost(kase, reference.toolChain);
    sections.push(`Total cost of the reference chain: ${cost ?? 'unknown (a tool has no cost)'}`);
  }
  return sections;
}

function stepWiseReference(kase: Case): string[] {
  const { reference, input } = kase;
  return [
    `Steps to predict: ${input.horizon ?? 1}`,
    `Reference next step(s) (one valid continuation):\n${stepsText(reference.groundTruthSteps)}`,
    `Remaining reference steps after those (context only):\n${stepsText(reference.remainingSteps)}`,
  ];
}

/** The REFERENCE block text of the paper protocol for one case. */
export function referenceText(kase: Case): string {
  const { reference } = kase;
  switch (kase.split) {
    case 'holistic_planning':
    case 'holistic_efficiency':
      return holisticReference(kase).join('\n\n');
    case 'holistic_tool_extraneous':
      return [
        `Distractor tools (any call to one is a critical E5): ${reference.extraneousToolNames.join(', ') || '(none recorded)'}`,
        ...holisticReference(kase),
      ].join('\n\n');
    case 'step_wise_planning':
      return stepWiseReference(kase).join('\n\n');
    case 'step_wise_tool_extraneous':
      return [
        `Distractor tools (any call to one is a critical E5): ${reference.extraneousToolNames.join(', ') || '(none recorded)'}`,
        ...stepWiseReference(kase),
      ].join('\n\n');
    case 'step_wise_tool_broken':
      return [
        `Broken tool: ${reference.brokenToolName ?? '(not recorded)'}`,
        `Designated replacement: ${reference.replacementTool ? toolText(reference.replacementTool) : '(not recorded)'}`,
        `Step the original trajectory took next (context only):\n${stepsText(reference.groundTruthSteps)}`,
      ].join('\n\n');
    case 'holistic_unsolvable': {
      const type = reference.unsolvableType;
      const sections = [`Type of impossibility: ${type ?? '(not recorded)'}`];
      if (type) sections.push(`Its criterion:\n${UNSOLVABLE_CRITERIA[type]}`);
      if (reference.plan || reference.toolChain.length > 0) {
        const recorded = [
          reference.plan,
          reference.toolChain.length > 0 ? chainText(reference.toolChain) : null,
        ]
          .filter(Boolean)
          .join('\n');
        sections.push(
          `Plan recorded with the case (context only; the task as given cannot be completed):\n${recorded}`,
        );
      }
      return sections.join('\n\n');
    }
  }
}

/** The `reference` object of the official payload (audit §2.0): plan fields for Holistic, step fields for Step-wise. */
export function officialReference(kase: Case): Record<string, unknown> {
  const { reference } = kase;
  if (kase.input.regime === 'Holistic') {
    const chain = reference.toolChain.map((call) => ({
      name: call.name,
      parameter_description: call.arguments,
      reason: call.reason ?? '',
    }));
    return { plan: reference.plan, tool_chain: chain, unsolvable_type: reference.unsolvableType };
  }
  return {
    prediction_horizon: kase.input.horizon,
    ground_truth_steps: reference.groundTruthSteps,
    reference_remaining_steps: reference.remainingSteps,
    broken_tool_name: reference.brokenToolName,
    replacement_tool: reference.replacementTool,
  };
}
