/** Holistic planning (paper §3.1): the complete plan and tool chain in one pass, f(Q, S, T) → (P, C). */
import type { CaseInput } from '../dataset/case.js';
import { parseHolisticAnswer } from './parse-answer.js';
import { officialPrompt } from './official-prompt.js';
import { versionOf, type Prompt, type PromptOptions, type PromptPart } from './prompt.js';
import {
  HOLISTIC_ASSUME_SOLVABLE,
  HOLISTIC_CLOSING,
  HOLISTIC_COST_RULE,
  HOLISTIC_REFUSAL_RULE,
  HOLISTIC_SYSTEM,
} from './prompts/holistic.js';
import { renderFiles, renderTools } from './render.js';
import { fill, type Setting } from './setting.js';

/** Variants of the holistic prompt chosen by the setting, never by the case. */
export interface HolisticVariant {
  showCost: boolean;
  allowRefusal: boolean;
}

/** The holistic planner prompt; shared by the extraneous, unsolvable and efficiency-aware settings. */
export function buildHolisticPrompt(
  input: CaseInput,
  options: PromptOptions,
  variant: HolisticVariant,
): Prompt {
  if (options.protocol === 'official') return officialPrompt(input, options, variant.allowRefusal);
  const system = fill(HOLISTIC_SYSTEM, {
    cost_rule: variant.showCost ? HOLISTIC_COST_RULE : '',
    availability: variant.allowRefusal ? HOLISTIC_REFUSAL_RULE : HOLISTIC_ASSUME_SOLVABLE,
  });
  const sections: string[] = [];
  if (input.systemPrompt) sections.push(`## Operating context\n${input.systemPrompt}`);
  sections.push(`## Request\n${input.query}`);
  const parts: PromptPart[] = [{ type: 'text', text: sections.join('\n\n') }];
  if (input.files.length > 0)
    parts.push(
      { type: 'text', text: '## Attachments' },
      ...renderFiles(input.files, options.textFileCharLimit),
    );
  parts.push({
    type: 'text',
    text: `## Available tools\n${renderTools(input.tools, { showCost: variant.showCost })}\n\n${HOLISTIC_CLOSING}`,
  });
  return {
    messages: [
      { role: 'system', parts: [{ type: 'text', text: system }] },
      { role: 'user', parts },
    ],
    promptVersion: versionOf(
      'holistic',
      system,
      HOLISTIC_CLOSING,
      String(options.textFileCharLimit),
    ),
  };
}

export const holisticPlanning: Setting = {
  id: 'holistic_planning',
  title: 'Holistic Planning',
  regime: 'Holistic',
  buildPrompt: (input, options) =>
    buildHolisticPrompt(input, options, { showCost: false, allowRefusal: options.allowRefusal }),
  parseAnswer: (text, _input, jsonDepth) => parseHolisticAnswer(text, jsonDepth),
};
