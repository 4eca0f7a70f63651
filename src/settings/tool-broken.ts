/**
 * Tool-broken planning (paper §3.1, C.4): the executed prefix ends with a critical tool's error
 * return, and a functional replacement sits in the tool bank. The replacement is just another
 * listed tool and the prompt is the step-wise prompt: nothing names the broken tool or its substitute.
 */
import { parseStepsAnswer } from './parse-answer.js';
import type { Setting } from './setting.js';
import { buildStepWisePrompt } from './step-wise.js';

export const stepWiseToolBroken: Setting = {
  id: 'step_wise_tool_broken',
  title: 'Tool-Broken',
  regime: 'Step-wise',
  buildPrompt: buildStepWisePrompt,
  parseAnswer: (text, input, jsonDepth) => parseStepsAnswer(text, input.horizon ?? 1, jsonDepth),
};
