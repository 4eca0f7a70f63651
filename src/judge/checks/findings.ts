/** `Findings`: the deterministic checks' results for one answer, stored beside every judgement. */
import type { ArgumentProblemKind } from '../../dataset/tool-arguments.js';
import type { BrokenBehavior } from '../verdict.js';

/** One argument-schema problem of a tool call (D8). */
export interface ArgumentProblem {
  /** 1-based position of the call in the answer's tool calls. */
  step: number;
  tool: string;
  kind: ArgumentProblemKind;
  /** The argument's path: `name`, `flights[0].date`, or '' for the arguments as a whole. */
  argument: string;
  detail?: string;
}

/** What the deterministic checks D1–D10 found in one answer (see `checks/index.ts`). */
export interface Findings {
  /** D1: the answer parsed and matches the split's output schema. */
  schema: { valid: boolean; issues: string[] };
  /** D2: tool names absent from the listed tools (exact match). */
  hallucinatedTools: { names: string[] };
  /** D3 (extraneous splits): calls to distractor tools; `count` is the paper's ExtUse, summed into TC. */
  distractorUse: { names: string[]; count: number } | null;
  /** D4 (tool-broken): what the answer does about the broken tool. */
  brokenTool: { behavior: BrokenBehavior; calledTool: string | null } | null;
  /** D5: refusal detection; a parse failure is never a refusal. */
  refusal: { refused: boolean; explicit: boolean; evidence: string | null };
  /** D6: tool-set precision / recall / F1 against the reference chain (null without a reference chain or a readable answer). */
  toolSet: { precision: number; recall: number; f1: number; missing: string[]; extra: string[] } | null;
  /** D7: order-aware agreement: longest common subsequence of tool names, and data-flow edge F1 (null as D6). */
  chainOrder: {
    lcs: number;
    lcsRatio: number;
    edgeF1: number | null;
    /** Share of the reference edges between two tools the answer calls that the answer also has (null when there is none). */
    sharedEdgeRecall?: number | null;
    /** `data-flow` when both sides' arguments cite earlier steps, else `consecutive` pairs. */
    edgeBasis?: 'data-flow' | 'consecutive';
  } | null;
  /** D8: argument checks against each called tool's JSON schema. */
  arguments: { checkedCalls: number; problems: ArgumentProblem[] };
  /** D9 (step-wise; null for a parse failure): per-position tool and argument agreement with the reference next-k steps. */
  nextK: {
    horizon: number;
    predicted: number;
    toolMatches: boolean[];
    argumentMatches: (boolean | null)[];
    allToolsMatch: boolean;
    /** Per position: the predicted tool (null for a text-only step or a missing one). */
    predictedTools?: (string | null)[];
    /** Per position: the ground-truth tool (null when the reference step calls none). */
    referenceTools?: (string | null)[];
    /** Per position: whether the predicted tool is one the reference uses anywhere (chain, next or remaining steps). */
    inReference?: boolean[];
  } | null;
  /** D10: plan length and cost against the reference (cost only when tools carry costs; null as D6). */
  planCost: { predictedSteps: number; referenceSteps: number; predictedCost: number | null; referenceCost: number | null } | null;
}

/** Findings in which nothing was found and nothing was compared: the neutral base of hand-built fixtures. */
export function noFindings(overrides: Partial<Findings> = {}): Findings {
  return {
    schema: { valid: true, issues: [] },
    hallucinatedTools: { names: [] },
    distractorUse: null,
    brokenTool: null,
    refusal: { refused: false, explicit: false, evidence: null },
    toolSet: null,
    chainOrder: null,
    arguments: { checkedCalls: 0, problems: [] },
    nextK: null,
    planCost: null,
    ...overrides,
  };
}
