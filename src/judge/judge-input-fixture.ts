/** `makeJudgeInput`: a hand-built `JudgeInput` of any split, for the judge's table tests. */
import { SPLIT_REGIME, type Case, type CaseFile, type CaseInput, type CaseReference, type SplitName } from '../dataset/case.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Prompt } from '../settings/prompt.js';
import type { Findings } from './checks/findings.js';
import type { JudgeInput } from './judge.js';

/** Findings with nothing found: valid schema, no unknown tool, no refusal, no reference comparison. */
export function emptyFindings(overrides: Partial<Findings> = {}): Findings {
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

/** An image attachment as the dataset reader would resolve it. */
export function imageFile(path: string): CaseFile {
  return { path, absolutePath: `/data/${path}`, kind: 'image', mimeType: 'image/png', label: 'image', sha256: 'hash', bytes: 10 };
}

/** What a test spells out; everything else gets an empty default. */
export interface JudgeInputParts {
  id?: string;
  input?: Partial<CaseInput>;
  reference?: Partial<CaseReference>;
  plannerPrompt?: Prompt;
  rawAnswer?: string;
  parsed?: ParsedAnswer;
  findings?: Findings;
}

/** Builds a complete `JudgeInput` of a split. */
export function makeJudgeInput(split: SplitName, parts: JudgeInputParts = {}): JudgeInput {
  const regime = SPLIT_REGIME[split];
  const input: CaseInput = { regime, query: 'the request', systemPrompt: null, tools: [], files: [], trajectoryPrefix: [], horizon: regime === 'Step-wise' ? 1 : null, ...parts.input };
  const reference: CaseReference = {
    plan: null,
    toolChain: [],
    groundTruthSteps: [],
    remainingSteps: [],
    unsolvableType: null,
    extraneousToolNames: [],
    brokenToolName: null,
    replacementTool: null,
    ...parts.reference,
  };
  const id = parts.id ?? `${split}-1`;
  const kase: Case = {
    id,
    split,
    input,
    reference,
    facets: {
      split,
      regime,
      source: null,
      sourceSubset: null,
      taskFamily: null,
      taskCategory: 'travel',
      horizon: input.horizon,
      stage: null,
      distractorLevel: null,
      unsolvableType: reference.unsolvableType,
      modality: input.files.length > 0 ? 'image' : 'text',
      referenceSteps: reference.toolChain.length || reference.groundTruthSteps.length,
      baseCaseKey: id,
    },
    record: {},
    contentHash: 'test',
    location: { file: 'test', line: 1 },
  };
  const plannerPrompt: Prompt = parts.plannerPrompt ?? {
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 'PLANNER-SYSTEM' }] },
      { role: 'user', parts: [{ type: 'text', text: `PLANNER-USER ${input.query}` }] },
    ],
    promptVersion: 'planner@test',
  };
  return {
    case: kase,
    plannerPrompt,
    rawAnswer: parts.rawAnswer ?? '{"plan": "1. search", "tool_chain": []}',
    parsed: parts.parsed ?? { kind: 'plan', plan: '1. search', toolChain: [], schemaIssues: [] },
    findings: parts.findings ?? emptyFindings(),
    repeat: 0,
  };
}
