/**
 * Unsolvable planning (paper §3.1, B.4.3, C.6): the expected answer is REJECT. The prompt is the
 * holistic prompt with the refusal allowance, the same words for every case of the split, saying
 * nothing of why a case could be impossible; `--allow-refusal` puts the same words into every split.
 */
import { buildHolisticPrompt } from './holistic.js';
import { parseHolisticAnswer } from './parse-answer.js';
import type { Setting } from './setting.js';

export const holisticUnsolvable: Setting = {
  id: 'holistic_unsolvable',
  title: 'Unsolvable',
  regime: 'Holistic',
  buildPrompt: (input, options) =>
    buildHolisticPrompt(input, options, { showCost: false, allowRefusal: true }),
  parseAnswer: (text, _input, jsonDepth) => parseHolisticAnswer(text, jsonDepth),
};
