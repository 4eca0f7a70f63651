/**
 * Efficiency-aware planning (paper §5.4, B.5, C.8): the holistic prompt over a cost-annotated tool
 * bank (originals, cheaper composite tools, trap tools), asking for the cheapest valid chain.
 */
import { buildHolisticPrompt } from './holistic.js';
import { parseHolisticAnswer } from './parse-answer.js';
import type { Setting } from './setting.js';

export const holisticEfficiency: Setting = {
  id: 'holistic_efficiency',
  title: 'Efficiency-Aware Planning',
  regime: 'Holistic',
  buildPrompt: (input, options) =>
    buildHolisticPrompt(input, options, { showCost: true, allowRefusal: options.allowRefusal }),
  parseAnswer: (text, _input, jsonDepth) => parseHolisticAnswer(text, jsonDepth),
};
