/**
 * Fake judgement lines (ours and the official harness's) and report data built from them, for the
 * report tests and the browser test: named as fakes, never used by the harness itself.
 */
import { SPLIT_REGIME, type Facets, type SplitName } from '../dataset/case.js';
import type { Manifest } from '../pipeline/manifest.js';
import { rowFromJudgementLine } from '../pipeline/result-rows.js';
import { buildReportData, type ReportData, type ReportOptions } from './report-data.js';

/** What a test says about one judgement; everything else gets a plain default. */
export interface LineSpec {
  split: SplitName;
  id: string;
  model?: string;
  judge?: string;
  correct?: boolean;
  grade?: number;
  errors?: number[];
  behavior?: string;
  refused?: boolean;
  status?: 'ok' | 'error' | 'parse_error';
  judgeStatus?: 'ok' | 'judge_error';
  response?: string;
  reasoning?: string;
  query?: string;
  horizon?: 1 | 2 | 3 | null;
  stage?: 'early' | 'middle' | 'late' | null;
  level?: number | null;
  unsolvableType?: string | null;
  modality?: 'text' | 'image' | 'video';
  steps?: number;
  distractorUses?: number;
  repeat?: number;
  promptVersion?: string;
  judgePromptVersion?: string;
  files?: unknown[];
  tools?: unknown[];
  refinement?: { mode: 'self' | 'critic'; taxonomy: boolean; critic?: string | null };
  planCost?: number;
}

/** The facets a line of ours carries. */
export function fakeFacets(spec: LineSpec): Facets {
  return {
    split: spec.split,
    regime: SPLIT_REGIME[spec.split],
    source: 'test',
    sourceSubset: null,
    taskFamily: 'family',
    taskCategory: 'category',
    horizon: spec.horizon ?? null,
    stage: spec.stage ?? null,
    distractorLevel: spec.level ?? null,
    unsolvableType: (spec.unsolvableType ?? null) as Facets['unsolvableType'],
    modality: spec.modality ?? 'text',
    referenceSteps: spec.steps ?? 4,
    baseCaseKey: `base:${spec.id.replace(/-x\d+$/, '')}`,
  };
}

function datasetFields(spec: LineSpec): Record<string, unknown> {
  return {
    id: spec.id,
    split: spec.split,
    planning_regime: SPLIT_REGIME[spec.split],
    query: spec.query ?? `Plan the task ${spec.id}.`,
    tools_json: JSON.stringify(
      spec.tools ?? [
        {
          name: 'search',
          description: 'Search the web',
          parameters: { type: 'object', properties: { q: { type: 'string' } } },
        },
      ],
    ),
    files: spec.files ?? [],
    prediction_horizon: spec.horizon ?? null,
    plan: 'Search, then answer.',
    tool_chain_json: JSON.stringify([{ name: 'search', parameter_description: { q: 'x' } }]),
    unsolvable_type: spec.unsolvableType ?? null,
    extraneous_tool_names_json: JSON.stringify(
      Array.from({ length: spec.level ?? 0 }, (_, index) => `distractor_${index}`),
    ),
    stage: spec.stage ?? null,
    modality: spec.modality ?? 'text',
    steps: spec.steps ?? 4,
  };
}

function judgementOf(spec: LineSpec): Record<string, unknown> {
  const correct = spec.correct ?? false;
  return {
    is_correct: correct,
    grade: spec.grade ?? (correct ? 1 : 0.4),
    error_list: spec.errors ?? (correct ? [0, 0, 0, 0, 0, 0] : [0, 0, 0, 1, 0, 0]),
    reasoning: spec.reasoning ?? (correct ? 'Complete and correct.' : 'The plan skips a step.'),
    ...(spec.behavior ? { behavior: spec.behavior } : {}),
    ...(spec.refused === undefined ? {} : { refused: spec.refused }),
  };
}

/** A complete `apb.refinement` block (rundir/schemas/refinement.ts) of the method given; no initial verdict. */
function fakeRefinement(method: NonNullable<LineSpec['refinement']>): Record<string, unknown> {
  return {
    mode: method.mode,
    taxonomy: method.taxonomy,
    critic: method.critic ?? 'openai:gpt-test',
    rounds: 1,
    round: 1,
    status: 'ok',
    source_run: { dir: 'runs/source', manifest_sha256: 'sha', fingerprint: 'fp' },
    initial: {
      model_response: '',
      status: 'ok',
      is_correct: null,
      grade: null,
      judge: 'rules',
      judge_status: 'none',
      judged_in: 'source',
    },
    critiques: [],
    revisions: [],
  };
}

/** A judgement line as `apb run` writes it. */
export function fakeApbLine(spec: LineSpec): Record<string, unknown> {
  const status = spec.status ?? 'ok';
  const judgeStatus = spec.judgeStatus ?? 'ok';
  return {
    ...datasetFields(spec),
    tested_model: spec.model ?? 'openai:gpt-test',
    model_response:
      spec.response ?? '{"plan": "search then answer", "tool_chain": [{"name": "search"}]}',
    judge_model: spec.judge ?? 'rules',
    judgement:
      judgeStatus === 'ok'
        ? judgementOf(spec)
        : { is_correct: false, grade: null, error_list: [0, 0, 0, 0, 0, 0], reasoning: '' },
    apb: {
      schema_version: 1,
      status: judgeStatus,
      judge_kind: 'rules',
      judge_prompt_version: spec.judgePromptVersion ?? 'judge-v1',
      findings:
        spec.distractorUses === undefined && spec.planCost === undefined
          ? null
          : {
              ...(spec.distractorUses === undefined
                ? {}
                : {
                    distractorUse: {
                      names: spec.distractorUses > 0 ? ['distractor_0'] : [],
                      count: spec.distractorUses,
                    },
                  }),
              ...(spec.planCost === undefined
                ? {}
                : {
                    planCost: {
                      predictedSteps: 3,
                      referenceSteps: 3,
                      predictedCost: spec.planCost,
                      referenceCost: 5,
                    },
                  }),
            },
      ...(spec.refinement ? { refinement: fakeRefinement(spec.refinement) } : {}),
      usage: null,
      latency_ms: null,
      attempts: 1,
      cached: false,
      ...(judgeStatus === 'judge_error'
        ? { judge_error: { reason: 'judge-parse-failure', message: 'unreadable reply' } }
        : {}),
      notes: [],
      prediction: {
        schema_version: 1,
        status,
        repeat: spec.repeat ?? 0,
        fingerprint: `fp-${spec.id}`,
        prompt_version: spec.promptVersion ?? 'planner-v1',
        parsed:
          status === 'ok'
            ? {
                kind: 'plan',
                plan: 'search then answer',
                toolChain: [{ name: 'search', arguments: {} }],
                schemaIssues: [],
              }
            : null,
        ...(status === 'parse_error' ? { parse_error: 'no JSON object found' } : {}),
        ...(status === 'error'
          ? { error: { kind: 'server', message: 'HTTP 500', status: 500 } }
          : {}),
        usage: { inputTokens: 100, outputTokens: 50 },
        latency_ms: 1200,
        finish_reason: 'stop',
        attempts: 1,
        cached: false,
        facets: fakeFacets(spec),
      },
    },
  };
}

/** A judgement line as the official harness writes it: dataset fields and the four official keys, no `apb`. */
export function fakeOfficialLine(spec: LineSpec): Record<string, unknown> {
  return {
    ...datasetFields(spec),
    tested_model: spec.model ?? 'gpt-test',
    model_response: spec.response ?? 'plan text',
    judge_model: spec.judge ?? 'gemini-3-pro-preview',
    judgement: judgementOf(spec),
  };
}

/** JSONL text of lines. */
export function jsonl(lines: readonly Record<string, unknown>[]): string {
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** One run per entry: its directory name and line specs. */
export function fakeReport(
  runs: { dir: string; specs: LineSpec[]; manifest?: Manifest | null }[],
  options: ReportOptions = {},
): ReportData {
  return buildReportData(
    runs.map((run) => ({
      dir: run.dir,
      rows: [],
      manifest: run.manifest ?? null,
      lines: run.specs.map(fakeApbLine).map((line) => ({ line, row: rowFromJudgementLine(line) })),
    })),
    { generatedAt: null, caseBrowser: true, ...options },
  );
}
