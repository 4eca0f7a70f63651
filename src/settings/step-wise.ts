/** Step-wise planning (paper §3.1): the next k actions given the executed prefix, f(S, T, τ1:j) → (a_j+1..a_j+k). */
import type { CaseInput } from '../dataset/case.js';
import { officialPrompt } from './official-prompt.js';
import { parseStepsAnswer } from './parse-answer.js';
import { versionOf, type Prompt, type PromptOptions, type PromptPart } from './prompt.js';
import {
  STEP_WISE_BLIND_RULE,
  STEP_WISE_COUNT_WORDS,
  STEP_WISE_REFUSAL_RULE,
  STEP_WISE_SYSTEM,
} from './prompts/step-wise.js';
import { renderFiles, renderTools, renderTrajectory } from './render.js';
import { fill, type Setting } from './setting.js';

/** The step-wise planner prompt; shared by the step-wise extraneous and tool-broken settings. */
export function buildStepWisePrompt(input: CaseInput, options: PromptOptions): Prompt {
  if (options.protocol === 'official') return officialPrompt(input, options, options.allowRefusal);
  const k = input.horizon ?? 1;
  const system = fill(STEP_WISE_SYSTEM, {
    count: STEP_WISE_COUNT_WORDS[k] ?? `${k} actions`,
    k: String(k),
    blind_rule: k > 1 ? STEP_WISE_BLIND_RULE : '',
    availability: options.allowRefusal ? STEP_WISE_REFUSAL_RULE : '',
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
    text: [
      `## Available tools\n${renderTools(input.tools, { showCost: false })}`,
      `## Executed so far\n${renderTrajectory(input.trajectoryPrefix)}`,
      `## Your turn\nGive the next ${STEP_WISE_COUNT_WORDS[k] ?? `${k} actions`}.`,
    ].join('\n\n'),
  });
  return {
    messages: [
      { role: 'system', parts: [{ type: 'text', text: system }] },
      { role: 'user', parts },
    ],
    promptVersion: versionOf(
      'step-wise',
      STEP_WISE_SYSTEM,
      STEP_WISE_BLIND_RULE,
      options.allowRefusal ? STEP_WISE_REFUSAL_RULE : '',
      String(options.textFileCharLimit),
    ),
  };
}

export const stepWisePlanning: Setting = {
  id: 'step_wise_planning',
  title: 'Step-wise Planning',
  regime: 'Step-wise',
  buildPrompt: buildStepWisePrompt,
  parseAnswer: (text, input, jsonDepth) => parseStepsAnswer(text, input.horizon ?? 1, jsonDepth),
};
