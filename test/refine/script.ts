/**
 * The scripted fake for refinement tests: one loopback server answering, over real HTTP, the
 * planner (initial answers), the critic (critiques naming the mode they were asked in), the tested
 * model's revisions (by a fixed policy per mode) and an LLM judge (correct unless the answer carries
 * the WRONG marker). Every answer is the case's reference answer, marked or not, so the judge's
 * verdicts and therefore Table 4 follow from the policy alone and can be counted by hand.
 */
import { BASELINES } from '../../src/baselines/index.js';
import type { Case } from '../../src/dataset/case.js';
import {
  CRITIC_INTRO,
  CRITIQUE_SYSTEM,
  HOLISTIC_GENERAL,
  REVIEW_BLOCK,
  STEP_WISE_GENERAL,
} from '../../src/refine/prompts.js';
import type { FakeReply, FakeServer, RecordedRequest } from '../fake-server/index.js';
import { caseKey, sampleScript, useScriptServer, type CaseScript } from '../engine/helpers.js';

/** The model names the script answers as. */
export const MODELS = {
  planner: 'fake-planner',
  critic: 'fake-critic',
  judge: 'fake-judge',
} as const;

/** The source run: six holistic and six step-wise sample cases, answered by the fake planner and judged by the fake LLM judge at `url`. */
export const sourceArgs = (url: string, out: string, extra: string[] = []) => [
  'run',
  '--model',
  `openai-compatible:${MODELS.planner}`,
  '--base-url',
  url,
  '--judge',
  `openai-compatible:${MODELS.judge}`,
  '--judge-base-url',
  url,
  '--splits',
  'holistic_planning,step_wise_planning',
  '--limit',
  '6',
  '--out',
  out,
  '--no-cache',
  ...extra,
];

/** The marker that makes the scripted judge call an answer wrong. */
export const WRONG = 'XWRONGX';

/** A refinement method as the critique request reveals it. */
export type Tag = 'self+' | 'self-' | 'critic+' | 'critic-';

/** Positions (within their split, in file order) whose initial answer is wrong. */
export const INITIALLY_WRONG = [0, 3];

/** Per method: positions the revision fixes (→ reference answer) and breaks (→ marked answer). */
export const POLICY: Record<Tag, { fix: number[]; breaks: number[] }> = {
  'self+': { fix: [0, 3], breaks: [1] },
  'critic+': { fix: [0, 3], breaks: [] },
  'self-': { fix: [0], breaks: [1, 2] },
  'critic-': { fix: [3], breaks: [] },
};

/** Whether the answer at `position` is correct before and after refinement by `tag`. */
export function outcomeAt(position: number, tag: Tag): { before: boolean; after: boolean } {
  const before = !INITIALLY_WRONG.includes(position);
  const policy = POLICY[tag];
  return {
    before,
    after: policy.fix.includes(position) ? true : policy.breaks.includes(position) ? false : before,
  };
}

/** A critique of a realistic length (a few hundred tokens), naming its method so the revision can follow the policy. */
export function critiqueText(tag: Tag, key: string): string {
  const body =
    'The plan calls the lookup before it has the identifier it needs, and the final step reports a result that no earlier call produces. Every other step follows from the request and uses listed tools with arguments that fit their descriptions. ';
  return `METHOD=${tag} CASE=${key}. ${body.repeat(6)}Recommendation: keep the correct steps and fix only what is listed.`;
}

const marked = (answer: string) => {
  try {
    return JSON.stringify({ ...(JSON.parse(answer) as object), note: WRONG });
  } catch {
    return `${answer}\n${WRONG}`;
  }
};

/** What one request is: a planner, critique, revision or judge call, and for which case. */
export function kindOf(
  request: RecordedRequest,
): 'planner' | 'critique' | 'revision' | 'judge' | 'other' {
  const parsed = request.parsed;
  if (!parsed) return 'other';
  if (parsed.model === MODELS.judge) return 'judge';
  if (parsed.messages[0]?.role === 'system' && parsed.messages[0].text === CRITIQUE_SYSTEM)
    return 'critique';
  if (parsed.messages.at(-1)?.text.includes(`=== ${REVIEW_BLOCK} ===`)) return 'revision';
  return 'planner';
}

/** The method a critique request was made with. */
function tagOf(text: string): Tag {
  const general = text.includes(HOLISTIC_GENERAL) || text.includes(STEP_WISE_GENERAL);
  return `${text.includes(CRITIC_INTRO) ? 'critic' : 'self'}${general ? '-' : '+'}` as Tag;
}

/** The refinement script over the built-in sample. */
export interface RefineScript {
  base: CaseScript;
  /** A case's position within its split (file order). */
  positionOf(key: string): number;
  respond(request: RecordedRequest): FakeReply;
}

export async function refineScript(): Promise<RefineScript> {
  const base = await sampleScript();
  const positions = new Map<string, number>();
  const bySplit = new Map<string, number>();
  for (const item of base.cases) {
    const index = bySplit.get(item.split) ?? 0;
    bySplit.set(item.split, index + 1);
    positions.set(caseKey(item), index);
  }
  const answers = new Map(
    base.cases.map((item: Case) => [caseKey(item), BASELINES.oracle.answer(item)]),
  );
  const positionOf = (key: string) => positions.get(key) ?? -1;
  return {
    base,
    positionOf,
    respond(request) {
      const kind = kindOf(request);
      const text = request.parsed?.text ?? '';
      if (kind === 'judge') {
        const answer = text.slice(
          text.lastIndexOf('=== PLANNER ANSWER'),
          text.lastIndexOf('=== END OF PLANNER ANSWER'),
        );
        const right = !answer.includes(WRONG);
        const errors = { E1: false, E2: false, E3: false, E4: !right, E5: false, E6: false };
        return {
          text: JSON.stringify({
            reasoning: right ? 'JUDGE-VERDICT: sound plan' : 'JUDGE-VERDICT: broken dependency',
            errors,
            is_correct: right,
            grade: right ? 1 : 0.4,
          }),
        };
      }
      const key = base.caseOf(request);
      if (!key) return { text: 'unrecognised request' };
      const reference = answers.get(key)!;
      if (kind === 'planner')
        return { text: INITIALLY_WRONG.includes(positionOf(key)) ? marked(reference) : reference };
      if (kind === 'critique') return { text: critiqueText(tagOf(text), key) };
      const tag = /METHOD=(self|critic)([+-])/.exec(text);
      const after = outcomeAt(positionOf(key), `${tag?.[1]}${tag?.[2]}` as Tag).after;
      return { text: after ? reference : marked(reference) };
    },
  };
}

/** A fake server running the refinement script for the calling test file (reset before each test). */
export function useRefineServer(): { readonly server: FakeServer; readonly script: RefineScript } {
  return useScriptServer(refineScript);
}
