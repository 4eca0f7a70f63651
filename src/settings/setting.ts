/** The `Setting` contract: one object per APB evaluation setting (a split), pure. */
import type { CaseInput, PlanningRegime, SplitName } from '../dataset/case.js';
import type { ParsedAnswer } from './attempt.js';
import type { Prompt, PromptOptions } from './prompt.js';

export interface Setting {
  id: SplitName;
  /** The paper's name for it, for reports. */
  title: string;
  regime: PlanningRegime;
  /** Builds the planner prompt from what the planner may see, and nothing else. */
  buildPrompt(input: CaseInput, options: PromptOptions): Prompt;
  /** Reads the planner's raw answer, nested at most `jsonDepth` (the JSON cap; default `DEFAULT_LIMITS`'). */
  parseAnswer(text: string, input: CaseInput, jsonDepth?: number): ParsedAnswer;
}

/** Fills `{{name}}` slots of a template; an unknown slot is a bug, so it throws. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`template slot {{${name}}} has no value`);
    return value;
  });
}
