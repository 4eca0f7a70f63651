/**
 * What the case browser shows of a refined answer (apb refine lines): the initial answer and the
 * verdict on it, every round's critique and revision, and how the refinement ended, so before and
 * after sit side by side. Pure; untrusted texts are capped here and set as text by the page.
 */
import { capText } from './case-details.js';
import { methodLabel } from './labels.js';

type Loose = Record<string, unknown>;
const asObject = (value: unknown): Loose | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** One round: the critique and the revision it led to (null when the round stopped at its critique). */
export interface RoundView {
  round: number;
  critic: string;
  critique: string;
  critiqueStatus: string;
  critiqueError: string | null;
  revision: string | null;
  revisionStatus: string | null;
  revisionError: string | null;
}

/** A refined answer's refinement. */
export interface RefinementView {
  /** The paper's label: Self_R+, Critic_R−, … */
  method: string;
  critic: string;
  status: string;
  initial: {
    response: string;
    status: string;
    correct: boolean | null;
    grade: number | null;
    judge: string;
    judgedIn: string;
  };
  rounds: RoundView[];
}

function errorText(record: Loose | null): string | null {
  const error = asObject(record?.error);
  return error
    ? capText(
        `${text(error.kind) || 'error'}${error.status ? ` ${String(error.status)}` : ''}: ${text(error.message)}`,
        4000,
      )
    : null;
}

/** The refinement of a judgement line (`apb.refinement`), or null for an unrefined answer. */
export function refinementViewOf(apb: Loose | null): RefinementView | null {
  const refinement = asObject(apb?.refinement) ?? asObject(asObject(apb?.prediction)?.refinement);
  if (!refinement || (refinement.mode !== 'self' && refinement.mode !== 'critic')) return null;
  const initial = asObject(refinement.initial) ?? {};
  const critiques = Array.isArray(refinement.critiques) ? refinement.critiques.map(asObject) : [];
  const revisions = Array.isArray(refinement.revisions) ? refinement.revisions.map(asObject) : [];
  return {
    method: methodLabel({
      mode: refinement.mode,
      taxonomy: refinement.taxonomy === true,
      rounds: typeof refinement.rounds === 'number' ? refinement.rounds : 1,
    }),
    critic: text(refinement.critic),
    status: text(refinement.status),
    initial: {
      response: capText(initial.model_response),
      status: text(initial.status),
      correct: typeof initial.is_correct === 'boolean' ? initial.is_correct : null,
      grade: typeof initial.grade === 'number' ? initial.grade : null,
      judge: text(initial.judge),
      judgedIn: text(initial.judged_in),
    },
    rounds: critiques.map((critique, index) => {
      const revision = revisions[index] ?? null;
      return {
        round: index + 1,
        critic: text(critique?.critic),
        critique: capText(critique?.text),
        critiqueStatus: text(critique?.status),
        critiqueError: errorText(critique),
        revision: revision ? capText(revision.text) : null,
        revisionStatus: revision ? text(revision.status) : null,
        revisionError: errorText(revision),
      };
    }),
  };
}
