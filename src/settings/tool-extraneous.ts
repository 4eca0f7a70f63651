/**
 * Tool-extraneous planning (paper §3.1, C.5): the base prompts over a tool bank that also holds
 * n_e ∈ {2,4,6,8,10} distractors. The distractors are listed like any other tool and never
 * labelled: the prompt is the base setting's prompt, word for word.
 */
import { buildHolisticPrompt } from './holistic.js';
import { parseHolisticAnswer, parseStepsAnswer } from './parse-answer.js';
import type { Setting } from './setting.js';
import { buildStepWisePrompt } from './step-wise.js';

export const holisticToolExtraneous: Setting = {
  id: 'holistic_tool_extraneous',
  title: 'Tool-Extraneous (holistic)',
  regime: 'Holistic',
  buildPrompt: (input, options) =>
    buildHolisticPrompt(input, options, { showCost: false, allowRefusal: options.allowRefusal }),
  parseAnswer: (text, _input, jsonDepth) => parseHolisticAnswer(text, jsonDepth),
};

export const stepWiseToolExtraneous: Setting = {
  id: 'step_wise_tool_extraneous',
  title: 'Tool-Extraneous (step-wise)',
  regime: 'Step-wise',
  buildPrompt: buildStepWisePrompt,
  parseAnswer: (text, input, jsonDepth) => parseStepsAnswer(text, input.horizon ?? 1, jsonDepth),
};
