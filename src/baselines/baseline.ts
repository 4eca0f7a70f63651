/** The `BaselinePlanner` contract and the answer-JSON writers the baselines share. */
import type { Case } from '../dataset/case.js';

/** A named, non-LLM planner: it writes the raw answer text a model would, and is never reported as a model. */
export interface BaselinePlanner {
  /** Registry key, e.g. `oracle`. */
  readonly id: string;
  /** One line on what it does, for reports. */
  readonly description: string;
  answer(caseItem: Case): string;
}

/** One tool-chain node of a holistic answer. */
export interface ChainNode {
  name: string;
  parameter_description: unknown;
  reason: string;
}

/** One predicted step of a step-wise answer. */
export interface StepNode {
  thought: string;
  tool: string | null;
  arguments: unknown;
  content?: string;
}

/** A holistic answer `{"plan", "tool_chain"}` (the format of settings/prompts/holistic.ts). */
export function holisticAnswer(plan: string, toolChain: ChainNode[]): string {
  return JSON.stringify({ plan, tool_chain: toolChain });
}

/** A step-wise answer `{"predicted_steps"}` (the format of settings/prompts/step-wise.ts). */
export function stepsAnswer(steps: StepNode[]): string {
  return JSON.stringify({ predicted_steps: steps });
}

/** An explicit refusal `{"status": "REJECT", "reason"}`. */
export function rejectAnswer(reason: string): string {
  return JSON.stringify({ status: 'REJECT', reason });
}
