/**
 * The APB case model: what the planner may see (`CaseInput`), what only the judge and metrics
 * may see (`CaseReference`), and the `facets` every breakdown groups by.
 */

/** The six released splits plus this project's cost-annotated split. */
export const SPLITS = [
  'holistic_planning',
  'holistic_tool_extraneous',
  'holistic_unsolvable',
  'step_wise_planning',
  'step_wise_tool_extraneous',
  'step_wise_tool_broken',
  'holistic_efficiency',
] as const;
export type SplitName = (typeof SPLITS)[number];

/** The released splits (the official harness knows only these). */
export const RELEASED_SPLITS = SPLITS.filter((split) => split !== 'holistic_efficiency');

export const PLANNING_REGIMES = ['Holistic', 'Step-wise'] as const;
export type PlanningRegime = (typeof PLANNING_REGIMES)[number];

/** The regime each split belongs to. */
export const SPLIT_REGIME: Record<SplitName, PlanningRegime> = {
  holistic_planning: 'Holistic',
  holistic_tool_extraneous: 'Holistic',
  holistic_unsolvable: 'Holistic',
  holistic_efficiency: 'Holistic',
  step_wise_planning: 'Step-wise',
  step_wise_tool_extraneous: 'Step-wise',
  step_wise_tool_broken: 'Step-wise',
};

export const UNSOLVABLE_TYPES = [
  'contradictory_constraints',
  'information_missing',
  'tool_removal',
  'visual_missing',
] as const;
export type UnsolvableType = (typeof UNSOLVABLE_TYPES)[number];

export const STAGES = ['early', 'middle', 'late'] as const;
export type Stage = (typeof STAGES)[number];

export const MODALITIES = ['text', 'image', 'video'] as const;
export type Modality = (typeof MODALITIES)[number];

export type Horizon = 1 | 2 | 3;

/** A tool as listed to the planner, whatever shape the dataset wrote it in. */
export interface Tool {
  name: string;
  description: string;
  /** JSON schema of the arguments, when the dataset gives one. */
  parameters?: Record<string, unknown>;
  /** Cost per call (efficiency-aware cases only). */
  cost?: number;
  /** A usage example, when the dataset gives one instead of a schema. */
  example?: string;
  /**
   * Explicitly annotated as read-only (true) or state-changing (false); absent when the data says
   * nothing (see tool-effect.ts).
   */
  readOnly?: boolean;
}

/** One tool invocation, in a plan, a trajectory or a reference. */
export interface ToolCall {
  name: string;
  arguments: unknown;
  reason?: string;
}

/** One message of an executed trajectory, normalised from the shapes found in real data. */
export interface TrajectoryMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
  thought?: string;
  /** A natural-language action (OpenCUA-style trajectories). */
  action?: string;
  toolCalls: ToolCall[];
}

/** One reference step of a step-wise case. */
export interface ReferenceStep {
  toolCalls: ToolCall[];
  text?: string;
  reason?: string;
}

/** A file attached to a case, resolved against the dataset root when the case is read. */
export interface CaseFile {
  /** Path as written in the dataset, relative to its root. */
  path: string;
  absolutePath: string;
  kind: 'image' | 'video' | 'text' | 'other';
  mimeType: string;
  /** The dataset's `type` tag, e.g. `image`, `start_screenshot`, `policy_document`. */
  label: string | null;
  sha256: string;
  bytes: number;
  /** An image's pixel size from its header, when it could be read (token estimates). */
  width?: number;
  height?: number;
  /** The full text of a text file (prompt builders cap it, with a visible marker). */
  text?: string;
}

/** Everything the planner may see. Prompt builders receive this and nothing else. */
export interface CaseInput {
  regime: PlanningRegime;
  query: string;
  systemPrompt: string | null;
  tools: Tool[];
  files: CaseFile[];
  trajectoryPrefix: TrajectoryMessage[];
  horizon: Horizon | null;
}

/** Answers and labels: seen by checks, judges and metrics, never by the planner. */
export interface CaseReference {
  plan: string | null;
  toolChain: ToolCall[];
  groundTruthSteps: ReferenceStep[];
  remainingSteps: ReferenceStep[];
  unsolvableType: UnsolvableType | null;
  extraneousToolNames: string[];
  brokenToolName: string | null;
  replacementTool: Tool | null;
}

/** What the breakdowns group by, derived once when the case is read (see `facets.ts`). */
export interface Facets {
  split: SplitName;
  regime: PlanningRegime;
  source: string | null;
  sourceSubset: string | null;
  taskFamily: string | null;
  taskCategory: string | null;
  horizon: Horizon | null;
  stage: Stage | null;
  distractorLevel: number | null;
  unsolvableType: UnsolvableType | null;
  modality: Modality;
  referenceSteps: number;
  /** Links a robustness variant to its base case: equal keys mean the same underlying task. */
  baseCaseKey: string;
}

/** One APB case, as read from a dataset line. */
export interface Case {
  id: string;
  split: SplitName;
  input: CaseInput;
  reference: CaseReference;
  facets: Facets;
  /** The dataset line as read (every field), written back into predictions and judgements. */
  record: Record<string, unknown>;
  /** The dataset line's JSON text, trimmed (result lines reuse it for the record's fields). */
  recordText: string;
  /** Content hash of the record: part of the resume fingerprint. */
  contentHash: string;
  location: { file: string; line: number };
}
