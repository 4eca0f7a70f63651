/** `--protocol official`: the released runner's JSON-payload prompt, minus every field that leaks an answer or label. */
import type { CaseInput } from '../dataset/case.js';
import {
  OFFICIAL_HOLISTIC_INSTRUCTION,
  OFFICIAL_REFUSAL_INSTRUCTION,
  OFFICIAL_STEP_WISE_INSTRUCTION,
  OFFICIAL_SYSTEM,
} from './prompts/official.js';
import { versionOf, type Prompt, type PromptOptions, type PromptPart } from './prompt.js';
import { fill } from './setting.js';

export function officialPrompt(
  input: CaseInput,
  options: PromptOptions,
  allowRefusal: boolean,
): Prompt {
  const stepWise = input.regime === 'Step-wise';
  const instruction =
    (stepWise
      ? fill(OFFICIAL_STEP_WISE_INSTRUCTION, { k: String(input.horizon ?? 1) })
      : OFFICIAL_HOLISTIC_INSTRUCTION) + (allowRefusal ? OFFICIAL_REFUSAL_INSTRUCTION : '');
  const payload: Record<string, unknown> = {
    query: input.query,
    instruction,
    available_tools: input.tools,
    tool_names: input.tools.map((tool) => tool.name),
  };
  if (input.systemPrompt) payload.system_prompt = input.systemPrompt;
  if (stepWise) {
    payload.prediction_horizon = input.horizon;
    payload.trajectory_prefix = input.trajectoryPrefix;
  }
  const textFiles = input.files.filter((file) => file.kind === 'text');
  if (textFiles.length > 0) {
    payload.file_context = textFiles.map((file) => ({
      path: file.path,
      content: (file.text ?? '').slice(0, options.textFileCharLimit),
    }));
  }
  const parts: PromptPart[] = [{ type: 'text', text: JSON.stringify(payload, null, 2) }];
  for (const file of input.files) if (file.kind === 'image') parts.push({ type: 'image', file });
  return {
    messages: [
      { role: 'system', parts: [{ type: 'text', text: OFFICIAL_SYSTEM }] },
      { role: 'user', parts },
    ],
    promptVersion: versionOf(
      'official',
      OFFICIAL_SYSTEM,
      stepWise ? OFFICIAL_STEP_WISE_INSTRUCTION : OFFICIAL_HOLISTIC_INSTRUCTION,
      allowRefusal ? OFFICIAL_REFUSAL_INSTRUCTION : '',
    ),
  };
}
