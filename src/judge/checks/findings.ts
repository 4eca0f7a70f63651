/** `Findings`: the deterministic checks' results for one answer, stored beside every judgement. */
import type { ToolEffect } from '../../dataset/tool-effect.js';
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

/**
 * One argument value of a call that contradicts, invents or blurs what the query, the trajectory or
 * the reference fixes (D12).
 */
export interface ValueProblem {
  /** 1-based position of the call in the answer's tool calls (step-wise: of the step). */
  step: number;
  tool: string;
  argument: string;
  /**
   * conflict: differs from a fixed value; invented: an identifier seen nowhere; ungrounded: a
   * literal the request does not contain; vague: a placeholder where the value is known.
   */
  kind: 'conflict' | 'invented' | 'ungrounded' | 'vague';
  detail: string;
}

/** What the deterministic checks D1–D12 found in one answer (see `checks/index.ts`). */
export interface Findings {
  /** D1: the answer parsed and matches the split's output schema. */
  schema: { valid: boolean; issues: string[] };
  /** D2: tool names absent from the listed tools (exact match). */
  hallucinatedTools: { names: string[] };
  /** D3 (extraneous splits): calls to distractor tools; `count` is the paper's ExtUse, summed into TC. */
  distractorUse: { names: string[]; count: number } | null;
  /** D4 (tool-broken): what the answer does about the broken tool. */
  brokenTool: {
    behavior: BrokenBehavior;
    calledTool: string | null;
    /** Why a call of the replacement does not count as a recovery. */ note?: string;
  } | null;
  /**
   * D5: refusal detection: explicit REJECT, refusal wording in a text-only answer, or a reasoned
   * prose refusal that holds no JSON; never empty, cut-off or garbage text.
   */
  refusal: {
    refused: boolean;
    explicit: boolean;
    evidence: string | null;
    /** The refusal was read from prose that holds no JSON (the answer is a parse error). */ prose?: boolean;
  };
  /**
   * D6: tool-set precision / recall / F1 against the reference chain (null without a reference
   * chain or a readable answer).
   */
  toolSet: {
    precision: number;
    recall: number;
    f1: number;
    missing: string[];
    extra: string[];
  } | null;
  /** D7: order-aware agreement: longest common subsequence of tool names, and data-flow edge F1 (null as D6). */
  chainOrder: {
    lcs: number;
    lcsRatio: number;
    edgeF1: number | null;
    /**
     * Share of the reference edges between two tools the answer calls that the answer also has
     * (null when there is none).
     */
    sharedEdgeRecall?: number | null;
    /** `data-flow` when both sides' arguments cite earlier steps, else `consecutive` pairs. */
    edgeBasis?: 'data-flow' | 'consecutive';
  } | null;
  /** D8: argument checks against each called tool's JSON schema. */
  arguments: { checkedCalls: number; problems: ArgumentProblem[] };
  /**
   * D9 (step-wise; null for a parse failure): per-position tool and argument agreement with the
   * reference next-k steps.
   */
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
    /**
     * Per position: match, a sound reorder (`accepted`), right tool with wrong values, another
     * tool, missing, or text where a tool was due.
     */
    positions?: ('match' | 'accepted' | 'value-mismatch' | 'mismatch' | 'missing' | 'text-early')[];
  } | null;
  /** D10: plan length and cost against the reference (cost only when tools carry costs; null as D6). */
  planCost: {
    predictedSteps: number;
    referenceSteps: number;
    predictedCost: number | null;
    referenceCost: number | null;
  } | null;
  /** D11 (holistic; null without a reference chain or a readable answer): the plan aligned with the reference chain. */
  planAlignment?: {
    /** Answer step paired with reference step (1-based both). */
    pairs: { step: number; reference: number }[];
    referenceCalls: number;
    /** Reference calls without a counterpart; `coveredBy` is the answer step that stands in for one. */
    missing: { reference: number; tool: string; coveredBy: number | null }[];
    /** Answer calls without a counterpart, with their effect (a state-changing one is an unrequested change). */
    extra: { step: number; tool: string; effect: ToolEffect }[];
    /** Answer calls placed before a reference call they depend on, or writes moved before a reference read. */
    unsoundOrder: { step: number; tool: string; before: number }[];
    /** Calls citing their own or a later step's output. */
    futureData: { step: number; cites: number }[];
    /**
     * Placeholders whose data no earlier step produces (`unavailable`), that name a step doing
     * something else (`wrong-source`), or that leave open which of several steps they use
     * (`ambiguous`).
     */
    dataFlow: {
      step: number;
      argument: string;
      problem: 'unavailable' | 'wrong-source' | 'ambiguous';
      detail: string;
    }[];
  } | null;
  /** D12: argument values against the query, the trajectory and the reference. */
  argumentValues?: { problems: ValueProblem[] };
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
    planAlignment: null,
    argumentValues: { problems: [] },
    ...overrides,
  };
}
