/**
 * The judge prompt of each setting (paper §3.3, Appendix C), pure: the rubric as the system
 * message and the material (planner prompt with its images, reference, checks, quoted answer) as
 * the user message. See docs/judge.md.
 */
import type { SplitName, UnsolvableType } from '../dataset/case.js';
import { UNSOLVABLE_TYPES } from '../dataset/case.js';
import { fill } from '../settings/setting.js';
import { versionOf, type Prompt, type PromptPart } from '../settings/prompt.js';
import type { JudgeInput } from './judge.js';
import { PAYLOAD_KEYS, buildOfficialJudgePrompt } from './official-judge-prompt.js';
import { PARSE_RULES_VERSION, type VerdictExpectation } from './parse-verdict.js';
import * as C from './prompts/common.js';
import {
  BEHAVIOR_OUTPUT,
  CLOSING,
  GRADED_OUTPUT,
  JUDGE_ROLE,
  MATERIAL_GUIDE,
  MATERIAL_GUIDE_BLIND,
  REFUSAL_OUTPUT,
} from './prompts/common.js';
import * as O from './prompts/official.js';
import * as H from './prompts/holistic.js';
import * as S from './prompts/step-wise.js';
import * as B from './prompts/tool-broken.js';
import * as U from './prompts/unsolvable.js';
import { findingsText } from './render-findings.js';
import {
  BLOCK_TITLES,
  MATERIAL_LAYOUT,
  block,
  mergeText,
  plannerPromptParts,
  quoteAnswer,
} from './render-material.js';
import { REFERENCE_RENDERING, referenceText } from './render-reference.js';

/**
 * How the judge prompt is built: the paper's protocol or the released runner's shape, with or
 * without the reference.
 */
export interface JudgePromptOptions {
  protocol: 'paper' | 'official';
  /** The paper's Table 7 ablation: no reference, nor any finding derived from it. */
  blind: boolean;
}

/** A judge prompt and the version of the templates that produced it. */
export interface JudgePrompt {
  prompt: Prompt;
  promptVersion: string;
}

type RubricText = { text: string; templates: string[] };

/** The holistic rubric with a split's extra principles (and their templates). */
function holisticRubric(blind: boolean, extra: string, templates: string[]): RubricText {
  return {
    text: fill(H.HOLISTIC_RUBRIC, {
      reference_principle: blind ? H.HOLISTIC_BLIND_PRINCIPLE : H.HOLISTIC_REFERENCE_PRINCIPLE,
      extra_principles: extra,
    }),
    templates: [
      H.HOLISTIC_RUBRIC,
      blind ? H.HOLISTIC_BLIND_PRINCIPLE : H.HOLISTIC_REFERENCE_PRINCIPLE,
      ...templates,
      GRADED_OUTPUT,
    ],
  };
}

/** The step-wise rubric for `k` next steps with a split's extra principles (and their templates). */
function stepWiseRubric(k: number, blind: boolean, extra: string, templates: string[]): RubricText {
  return {
    text: fill(S.STEP_WISE_RUBRIC, {
      k: String(k),
      reference_principle: blind ? S.STEP_WISE_BLIND_PRINCIPLE : S.STEP_WISE_REFERENCE_PRINCIPLE,
      multi_step: k > 1 ? S.MULTI_STEP_PRINCIPLES : '',
      extra_principles: extra,
    }),
    templates: [
      S.STEP_WISE_RUBRIC,
      blind ? S.STEP_WISE_BLIND_PRINCIPLE : S.STEP_WISE_REFERENCE_PRINCIPLE,
      S.MULTI_STEP_PRINCIPLES,
      ...templates,
      GRADED_OUTPUT,
    ],
  };
}

/** The rubric text of one split and the unfilled templates it was made from (for the version hash). */
function paperRubric(
  split: SplitName,
  k: number,
  blind: boolean,
  unsolvableType: UnsolvableType | null,
): { text: string; templates: string[] } {
  const holistic = (extra: string, templates: string[]) => holisticRubric(blind, extra, templates);
  const stepWise = (extra: string, templates: string[]) =>
    stepWiseRubric(k, blind, extra, templates);
  const extraneous = blind ? H.EXTRANEOUS_BLIND_PRINCIPLE : H.EXTRANEOUS_PRINCIPLE;
  switch (split) {
    case 'holistic_planning':
      return holistic('', []);
    case 'holistic_tool_extraneous':
      return holistic(extraneous, [extraneous]);
    case 'holistic_efficiency':
      return holistic(H.EFFICIENCY_PRINCIPLE, [H.EFFICIENCY_PRINCIPLE]);
    case 'step_wise_planning':
      return stepWise('', []);
    case 'step_wise_tool_extraneous':
      return stepWise(extraneous, [extraneous]);
    case 'step_wise_tool_broken': {
      const rule = blind ? B.TOOL_BROKEN_BLIND_RULE : B.TOOL_BROKEN_REFERENCE_RULE;
      return {
        text: fill(B.TOOL_BROKEN_RUBRIC, { reference_rule: rule }),
        templates: [B.TOOL_BROKEN_RUBRIC, rule, BEHAVIOR_OUTPUT],
      };
    }
    case 'holistic_unsolvable': {
      // With the reference the judge gets its case's criterion only; blind, it gets all four.
      const types = blind || !unsolvableType ? UNSOLVABLE_TYPES : [unsolvableType];
      const rule = blind ? U.UNSOLVABLE_BLIND_TYPE_RULE : U.UNSOLVABLE_TYPE_RULE;
      return {
        text: fill(U.UNSOLVABLE_RUBRIC, {
          type_rule: rule,
          type_criteria: types.map((type) => U.UNSOLVABLE_CRITERIA[type]).join('\n'),
        }),
        templates: [
          U.UNSOLVABLE_RUBRIC,
          rule,
          ...Object.values(U.UNSOLVABLE_CRITERIA),
          REFUSAL_OUTPUT,
        ],
      };
    }
  }
}

const OUTPUT_OF: Record<VerdictExpectation['shape'], string> = {
  graded: GRADED_OUTPUT,
  behavior: BEHAVIOR_OUTPUT,
  refusal: REFUSAL_OUTPUT,
};

function buildPaperJudgePrompt(input: JudgeInput, blind: boolean): JudgePrompt {
  const kase = input.case;
  const rubric = paperRubric(
    kase.split,
    kase.input.horizon ?? 1,
    blind,
    kase.reference.unsolvableType,
  );
  const guide = blind ? MATERIAL_GUIDE_BLIND : MATERIAL_GUIDE;
  const output = OUTPUT_OF[expectationFor(kase.split, 'paper').shape];
  const system = [JUDGE_ROLE, guide, rubric.text, output].join('\n\n');
  const parts: PromptPart[] = [
    ...block(BLOCK_TITLES.plannerPrompt, plannerPromptParts(input.plannerPrompt)),
    ...(blind ? [] : block(BLOCK_TITLES.reference, [{ type: 'text', text: referenceText(kase) }])),
    ...block(BLOCK_TITLES.checks, [
      { type: 'text', text: findingsText(input.findings, input.parsed, { blind }) },
    ]),
    ...block(BLOCK_TITLES.answer, [{ type: 'text', text: quoteAnswer(input.rawAnswer) }]),
    { type: 'text', text: CLOSING },
  ];
  const promptVersion = versionOf(
    `judge-${kase.split}${blind ? '-blind' : ''}`,
    JUDGE_ROLE,
    guide,
    ...rubric.templates,
    CLOSING,
    MATERIAL_LAYOUT,
    REFERENCE_RENDERING,
  );
  return {
    prompt: {
      messages: [
        { role: 'system', parts: [{ type: 'text', text: system }] },
        { role: 'user', parts: mergeText(parts) },
      ],
      promptVersion,
    },
    promptVersion,
  };
}

/** Builds the judge prompt of one answer for the case's split. */
export function buildJudgePrompt(input: JudgeInput, options: JudgePromptOptions): JudgePrompt {
  return options.protocol === 'official'
    ? buildOfficialJudgePrompt(input, options.blind)
    : buildPaperJudgePrompt(input, options.blind);
}

/** What a judge reply must hold for a split under a protocol, and how correctness is derived from it. */
export function expectationFor(
  split: SplitName,
  protocol: 'paper' | 'official',
): VerdictExpectation {
  if (protocol === 'official') {
    // The released prompts give unsolvable and tool-broken flags no meaning; elsewhere a flag still vetoes correctness.
    if (split === 'holistic_unsolvable')
      return { shape: 'graded', consistency: 'none', passIsRefusal: true };
    if (split === 'step_wise_tool_broken')
      return { shape: 'graded', consistency: 'none', passIsRefusal: false };
    return { shape: 'graded', consistency: 'flags-veto', passIsRefusal: false };
  }
  if (split === 'holistic_unsolvable')
    return { shape: 'refusal', consistency: 'none', passIsRefusal: true };
  if (split === 'step_wise_tool_broken')
    return { shape: 'behavior', consistency: 'none', passIsRefusal: false };
  return { shape: 'graded', consistency: 'strict', passIsRefusal: false };
}

/** Every string a template module exports, flattened in a stable order. */
function templateTexts(module: Record<string, unknown>): string[] {
  return Object.keys(module)
    .sort()
    .flatMap((key) => {
      const value = module[key];
      return typeof value === 'string'
        ? [value]
        : value && typeof value === 'object'
          ? Object.values(value).filter((item): item is string => typeof item === 'string')
          : [];
    });
}

/**
 * Version of everything that shapes an LLM judge's verdicts under a protocol: all rubric templates,
 * the layout and the parse rules.
 */
export function rubricVersion(options: JudgePromptOptions): string {
  const modules = options.protocol === 'official' ? [O] : [C, H, S, B, U];
  const layout =
    options.protocol === 'official' ? PAYLOAD_KEYS : `${MATERIAL_LAYOUT}; ${REFERENCE_RENDERING}`;
  return versionOf(
    `judge-${options.protocol}${options.blind ? '-blind' : ''}`,
    ...modules.flatMap(templateTexts),
    layout,
    PARSE_RULES_VERSION,
  );
}
