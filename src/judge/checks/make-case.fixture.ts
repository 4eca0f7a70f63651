/**
 * `makeCase`: a hand-built `Case` from partial input and reference, for table tests of checks,
 * judges and baselines.
 */
import {
  SPLIT_REGIME,
  type Case,
  type CaseInput,
  type CaseReference,
  type SplitName,
  type Tool,
} from '../../dataset/case.js';

/** What a test spells out; everything else gets an empty default. */
export interface CaseParts {
  id?: string;
  input?: Partial<CaseInput>;
  reference?: Partial<CaseReference>;
  record?: Record<string, unknown>;
}

/** A tool with an object schema of string properties, the first `required` of them required. */
export function makeTool(
  name: string,
  description: string,
  properties: string[] = [],
  required: string[] = properties,
  cost?: number,
): Tool {
  const tool: Tool = {
    name,
    description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(properties.map((property) => [property, { type: 'string' }])),
      required,
    },
  };
  if (cost !== undefined) tool.cost = cost;
  return tool;
}

/** Builds a complete, consistent `Case` of a split. */
export function makeCase(split: SplitName, parts: CaseParts = {}): Case {
  const regime = SPLIT_REGIME[split];
  const input: CaseInput = {
    regime,
    query: '',
    systemPrompt: null,
    tools: [],
    files: [],
    trajectoryPrefix: [],
    horizon: regime === 'Step-wise' ? 1 : null,
    ...parts.input,
  };
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
  return {
    id: parts.id ?? `${split}-1`,
    split,
    input,
    reference,
    facets: {
      split,
      regime,
      source: null,
      sourceSubset: null,
      taskFamily: null,
      taskCategory: null,
      horizon: input.horizon,
      stage: null,
      distractorLevel: split.endsWith('_tool_extraneous')
        ? reference.extraneousToolNames.length
        : null,
      unsolvableType: reference.unsolvableType,
      modality: 'text',
      referenceSteps: reference.toolChain.length || reference.groundTruthSteps.length,
      baseCaseKey: parts.id ?? `${split}-1`,
    },
    record: parts.record ?? {},
    recordText: JSON.stringify(parts.record ?? {}),
    contentHash: 'test',
    location: { file: 'test', line: 1 },
  };
}
