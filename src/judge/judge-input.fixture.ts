/** `makeJudgeInput`: a hand-built `JudgeInput` of any split, for the judge's table tests. */
import type { Case, CaseFile, CaseInput, CaseReference, SplitName } from '../dataset/case.js';
import { makeCase } from './checks/make-case.fixture.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Prompt } from '../settings/prompt.js';
import { noFindings, type Findings } from './checks/findings.js';
import type { JudgeInput } from './judge.js';

/** An image attachment as the dataset reader would resolve it. */
export function imageFile(path: string): CaseFile {
  return {
    path,
    absolutePath: `/data/${path}`,
    kind: 'image',
    mimeType: 'image/png',
    label: 'image',
    sha256: 'hash',
    bytes: 10,
  };
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
  const base = makeCase(split, {
    ...(parts.id ? { id: parts.id } : {}),
    input: { query: 'the request', ...parts.input },
    ...(parts.reference ? { reference: parts.reference } : {}),
  });
  const { input } = base;
  const kase: Case = {
    ...base,
    facets: {
      ...base.facets,
      taskCategory: 'travel',
      modality: input.files.length > 0 ? 'image' : 'text',
    },
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
    findings: parts.findings ?? noFindings(),
    repeat: 0,
  };
}
