/**
 * The critique and revision requests of one refinement round, built from the planner's exact
 * prompt and the answer under review. What varies by case is only what the planner prompt itself
 * shows (regime, horizon, the refusal allowance, tool costs): the critique wording never depends
 * on a label, so it cannot tell the critic more about a case than the planner was told.
 */
import {
  SPLIT_REGIME,
  type CaseInput,
  type PlanningRegime,
  type SplitName,
} from '../dataset/case.js';
import { block, mergeText, plannerPromptParts, quoteAnswer } from '../judge/render-material.js';
import { versionOf, type Prompt, type PromptPart } from '../settings/prompt.js';
import { fill } from '../settings/setting.js';
import {
  COST_NOTE,
  CRITIC_INTRO,
  CRITIQUE_BLOCKS,
  CRITIQUE_OUTPUT,
  CRITIQUE_SYSTEM,
  HOLISTIC_GENERAL,
  HOLISTIC_TAXONOMY,
  MULTI_ACTION_NOTE,
  REFUSAL_NOTE,
  REVIEW_BLOCK,
  REVISION_INSTRUCTION,
  SELF_INTRO,
  STEP_WISE_GENERAL,
  STEP_WISE_TAXONOMY,
  TAXONOMY_CAUTIONS,
  TAXONOMY_STEPS,
  TEMPLATE_GENERATION,
} from './prompts.js';
import * as TEMPLATES from './prompts.js';

/** Who writes the critique: the tested model itself (`self`) or another model or function (`critic`). */
export type RefineMode = 'self' | 'critic';

/** What of the planner prompt decides the critique wording. */
export interface CritiqueProfile {
  regime: PlanningRegime;
  /** Actions asked for (step-wise); 1 for holistic. */
  horizon: number;
  /** The planner prompt allowed a REJECT answer. */
  refusalAllowed: boolean;
  /** The tool list showed costs (efficiency-aware). */
  costShown: boolean;
}

/** The profile of a split's planner prompt: refusal is allowed on the unsolvable split and wherever the run allowed it for all. */
export function critiqueProfile(
  split: SplitName,
  input: Pick<CaseInput, 'horizon'>,
  allowRefusal = false,
): CritiqueProfile {
  const regime = SPLIT_REGIME[split];
  return {
    regime,
    horizon: regime === 'Step-wise' ? (input.horizon ?? 1) : 1,
    refusalAllowed: allowRefusal || split === 'holistic_unsolvable',
    costShown: split === 'holistic_efficiency',
  };
}

/** The review instruction: the taxonomy (with its review steps and warnings) or the general reflection, plus the notes the profile calls for; then the output rule. Without the taxonomy nothing tells the critic to keep the answer (as the legacy prompt). */
export function reviewInstruction(profile: CritiqueProfile, taxonomy: boolean): string {
  const holistic = profile.regime === 'Holistic';
  const sections = [
    taxonomy
      ? holistic
        ? HOLISTIC_TAXONOMY
        : STEP_WISE_TAXONOMY
      : holistic
        ? HOLISTIC_GENERAL
        : STEP_WISE_GENERAL,
  ];
  const notes = [
    profile.horizon > 1 ? MULTI_ACTION_NOTE : '',
    profile.refusalAllowed ? REFUSAL_NOTE : '',
    profile.costShown ? COST_NOTE : '',
  ].filter(Boolean);
  if (notes.length > 0) sections.push(notes.join('\n'));
  if (taxonomy) sections.push(TAXONOMY_STEPS, TAXONOMY_CAUTIONS);
  sections.push(CRITIQUE_OUTPUT);
  return sections.join('\n\n');
}

/** What a critique request is made from. */
export interface CritiqueInput {
  plannerPrompt: Prompt;
  /** The answer under review (the initial answer in round 1, the latest revision after). */
  answer: string;
  profile: CritiqueProfile;
  taxonomy: boolean;
  mode: RefineMode;
}

/** The critique request: reviewer role, the planner's prompt as it was sent (images included), the quoted answer, the instruction. */
export function buildCritiquePrompt(input: CritiqueInput): Prompt {
  const intro = input.mode === 'self' ? SELF_INTRO : CRITIC_INTRO;
  const instruction = reviewInstruction(input.profile, input.taxonomy);
  const parts: PromptPart[] = [
    { type: 'text', text: intro },
    ...block(CRITIQUE_BLOCKS.task, plannerPromptParts(input.plannerPrompt)),
    ...block(CRITIQUE_BLOCKS.answer, [{ type: 'text', text: quoteAnswer(input.answer) }]),
    { type: 'text', text: instruction },
  ];
  return {
    messages: [
      { role: 'system', parts: [{ type: 'text', text: CRITIQUE_SYSTEM }] },
      { role: 'user', parts: mergeText(parts) },
    ],
    promptVersion: versionOf(
      `critique-${input.mode}-${input.taxonomy ? 'metric' : 'general'}`,
      TEMPLATE_GENERATION,
      CRITIQUE_SYSTEM,
      intro,
      CRITIQUE_BLOCKS.task,
      CRITIQUE_BLOCKS.answer,
      instruction,
    ),
  };
}

/** The version of every revision request (the template is the same for every setting). */
export const REVISION_VERSION = versionOf(
  'revision',
  TEMPLATE_GENERATION,
  REVISION_INSTRUCTION,
  REVIEW_BLOCK,
);

/** The revision request: the planner's own conversation (its prompt, its answer) followed by the critique and the instruction. */
export function buildRevisionPrompt(
  plannerPrompt: Prompt,
  answer: string,
  critique: string,
): Prompt {
  const review = `=== ${REVIEW_BLOCK} ===\n${critique.trim()}\n=== END OF ${REVIEW_BLOCK} ===`;
  return {
    messages: [
      ...plannerPrompt.messages,
      // An empty assistant turn is refused by some endpoints; say what it was instead.
      {
        role: 'assistant',
        parts: [{ type: 'text', text: answer.length > 0 ? answer : '(empty answer)' }],
      },
      {
        role: 'user',
        parts: [{ type: 'text', text: fill(REVISION_INSTRUCTION, { critique: review }) }],
      },
    ],
    promptVersion: REVISION_VERSION,
  };
}

/** One version over every critique and revision template (a run directory's refinement identity). */
export const REFINE_PROMPT_VERSION = versionOf(
  'refine',
  ...Object.entries(TEMPLATES).map(
    ([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  ),
);
