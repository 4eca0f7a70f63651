/**
 * `--protocol official`: the released runner's judge shape (a split-specific system prompt and a
 * JSON payload), plus the planner prompt and its images.
 */
import type { SplitName } from '../dataset/case.js';
import { versionOf, type Prompt, type PromptPart } from '../settings/prompt.js';
import type { JudgeInput } from './judge.js';
import {
  OFFICIAL_EFFICIENCY,
  OFFICIAL_EXTRANEOUS,
  OFFICIAL_HOLISTIC,
  OFFICIAL_STEP_WISE,
  OFFICIAL_TOOL_BROKEN,
  OFFICIAL_UNSOLVABLE,
} from './prompts/official.js';
import { officialReference } from './render-reference.js';
import { imageParts, plannerPromptText } from './render-material.js';

/** The official system prompt of each split (efficiency-aware has no official split: holistic plus its cost rule). */
export const OFFICIAL_SYSTEM: Record<SplitName, string> = {
  holistic_planning: OFFICIAL_HOLISTIC,
  holistic_tool_extraneous: OFFICIAL_EXTRANEOUS,
  holistic_unsolvable: OFFICIAL_UNSOLVABLE,
  holistic_efficiency: OFFICIAL_EFFICIENCY,
  step_wise_planning: OFFICIAL_STEP_WISE,
  step_wise_tool_extraneous: OFFICIAL_EXTRANEOUS,
  step_wise_tool_broken: OFFICIAL_TOOL_BROKEN,
};

/** The payload keys in the released order; `planner_prompt` is this project's addition. */
export const PAYLOAD_KEYS =
  'id, task_category, query, available_tools, extraneous_tool_names, trajectory_prefix, reference, planner_prompt, model_response';

/** Builds the official-shape judge prompt; blind drops `reference` and `extraneous_tool_names`. */
export function buildOfficialJudgePrompt(
  input: JudgeInput,
  blind: boolean,
): { prompt: Prompt; promptVersion: string } {
  const kase = input.case;
  const payload: Record<string, unknown> = {
    id: kase.id,
    task_category: kase.facets.taskCategory,
    query: kase.input.query,
    available_tools: kase.input.tools,
  };
  if (!blind) payload.extraneous_tool_names = kase.reference.extraneousToolNames;
  payload.trajectory_prefix = kase.input.trajectoryPrefix;
  if (!blind) payload.reference = officialReference(kase);
  payload.planner_prompt = plannerPromptText(input.plannerPrompt);
  payload.model_response = input.rawAnswer;
  const parts: PromptPart[] = [
    { type: 'text', text: JSON.stringify(payload, null, 2) },
    ...imageParts(input.plannerPrompt),
  ];
  const system = OFFICIAL_SYSTEM[kase.split];
  const promptVersion = versionOf(
    `judge-official-${kase.split}${blind ? '-blind' : ''}`,
    system,
    PAYLOAD_KEYS,
  );
  return {
    prompt: {
      messages: [
        { role: 'system', parts: [{ type: 'text', text: system }] },
        { role: 'user', parts },
      ],
      promptVersion,
    },
    promptVersion,
  };
}
