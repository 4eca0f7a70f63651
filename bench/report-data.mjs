// Synthetic judgement lines at APB scale for bench/report.mjs: 12 models × 4,209 cases with the
// paper's split sizes and realistic facets, answer texts, findings and dataset fields.

import { mulberry32 } from '../dist/construction/random.js';
import { SPLIT_SIZES } from './apb-scale.mjs';

export const MODELS = [
  'GPT-5',
  'Gemini 3 Pro',
  'Claude Sonnet 4.5',
  'Gemini 2.5 Pro',
  'Gemini 2.5 Flash',
  'GPT-4o',
  'InternVL3.5-241B-A28B',
  'InternVL3.5-30B-A3B',
  'InternVL3.5-38B',
  'Qwen3-VL-235B-A22B-Instruct',
  'Qwen3-VL-30B-A3B-Instruct',
  'Qwen3-VL-32B-Instruct',
];
const UNSOLVABLE = [
  'contradictory_constraints',
  'information_missing',
  'tool_removal',
  'visual_missing',
];
const STAGES = ['early', 'middle', 'late'];
const BEHAVIORS = ['replace', 'alter', 'retry', 'refuse', 'other'];
const FAMILIES = [
  ['software', 'Software Development'],
  ['finance', 'Financial Modeling'],
  ['travel', 'Travel & Itinerary Planning'],
  ['media', 'Graphic Design'],
  ['retrieval', 'Information Retrieval'],
  ['data', 'Statistical Analysis'],
];
const WORDS =
  'search fetch parse summarise compare book cancel refund invoice chart image table report user order flight date price policy document screenshot extract convert translate filter'.split(
    ' ',
  );

function sentence(next, words) {
  return Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
}

function tools(next, count, distractors) {
  return Array.from({ length: count + distractors }, (_, index) => ({
    name:
      index < count
        ? `tool_${index}_${WORDS[index % WORDS.length]}`
        : `distractor_${index - count}`,
    description: `${sentence(next, 14)}.`,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: sentence(next, 6) },
        limit: { type: 'integer' },
      },
      required: ['query'],
    },
  }));
}

/** Every case of the benchmark: id, split and facets (without the model's answer). */
export function benchCases() {
  const next = mulberry32(7);
  const cases = [];
  for (const [split, size] of Object.entries(SPLIT_SIZES)) {
    for (let index = 0; index < size; index += 1) {
      const holistic = split.startsWith('holistic');
      const [family, category] = FAMILIES[index % FAMILIES.length];
      const level = split.endsWith('tool_extraneous') ? [2, 4, 6, 8, 10][index % 5] : null;
      const horizon = split.startsWith('step_wise') ? (index % 3) + 1 : null;
      const modality = index % 11 === 0 ? 'video' : index % 3 === 0 ? 'image' : 'text';
      const steps = 3 + Math.floor(next() * 22);
      cases.push({
        id: `${split}-${index}`,
        split,
        holistic,
        family,
        category,
        level,
        horizon,
        stage: horizon ? STAGES[Math.floor(index / 3) % 3] : null,
        unsolvableType: split === 'holistic_unsolvable' ? UNSOLVABLE[index % 4] : null,
        modality,
        steps,
        base: `base-${split.split('_')[0]}-${Math.floor(index / 5)}`,
        query: `${sentence(next, 40 + Math.floor(next() * 50))}?`,
        tools: tools(next, 5 + Math.floor(next() * 6), level ?? 0),
      });
    }
  }
  return cases;
}

/** One judgement line (our format) of `model` on `entry`. */
export function benchLine(entry, model, modelIndex, next) {
  const skill = 0.35 + 0.5 * (1 - modelIndex / MODELS.length);
  const failure = next();
  const status = failure < 0.01 ? 'error' : failure < 0.03 ? 'parse_error' : 'ok';
  const judgeError = status === 'ok' && next() < 0.01;
  const correct = status === 'ok' && !judgeError && next() < skill;
  const errors = [0, 0, 0, 0, 0, 0].map((_, k) =>
    !correct && next() < [0.05, 0.3, 0.35, 0.3, 0.2, 0.1][k] ? 1 : 0,
  );
  const chain = entry.tools
    .slice(0, Math.min(entry.tools.length, 2 + Math.floor(next() * 6)))
    .map((tool) => ({ name: tool.name, arguments: { query: sentence(next, 5), limit: 5 } }));
  const response = JSON.stringify({
    plan: sentence(next, 60 + Math.floor(next() * 80)),
    tool_chain: chain,
  });
  const distractorUses = entry.level ? (next() < 0.1 * (1 + modelIndex / 6) ? 1 : 0) : 0;
  return {
    id: entry.id,
    split: entry.split,
    planning_regime: entry.holistic ? 'Holistic' : 'Step-wise',
    task_family: entry.family,
    task_category: entry.category,
    source: 'bench',
    query: entry.query,
    tools_json: JSON.stringify(entry.tools),
    files: entry.modality === 'text' ? [] : [{ path: `assets/${entry.id}.png`, type: 'image' }],
    prediction_horizon: entry.horizon,
    plan: sentence(next, 30),
    tool_chain_json: JSON.stringify(
      chain.map((call) => ({ name: call.name, parameter_description: call.arguments })),
    ),
    unsolvable_type: entry.unsolvableType,
    extraneous_tool_names_json: JSON.stringify(
      entry.level
        ? entry.tools.filter((tool) => tool.name.startsWith('distractor_')).map((tool) => tool.name)
        : [],
    ),
    tested_model: model,
    model_response: status === 'error' ? '' : response,
    judge_model: 'google:gemini-3-pro-preview',
    judgement: judgeError
      ? { is_correct: false, grade: null, error_list: [0, 0, 0, 0, 0, 0], reasoning: '' }
      : {
          is_correct: correct,
          grade: correct ? (next() < 0.7 ? 1 : 0.8) : [0, 0.2, 0.4, 0.6][Math.floor(next() * 4)],
          error_list: errors,
          reasoning: sentence(next, 50 + Math.floor(next() * 60)),
          ...(entry.split === 'step_wise_tool_broken'
            ? { behavior: BEHAVIORS[Math.floor(next() * 5)] }
            : {}),
          ...(entry.split === 'holistic_unsolvable' ? { refused: correct } : {}),
        },
    apb: {
      schema_version: 1,
      status: judgeError ? 'judge_error' : 'ok',
      judge_kind: 'llm',
      judge_prompt_version: 'judge-v1',
      findings:
        status === 'ok'
          ? {
              schema: { valid: true, issues: [] },
              hallucinatedTools: { names: [] },
              distractorUse: entry.level
                ? { names: distractorUses ? ['distractor_0'] : [], count: distractorUses }
                : null,
              brokenTool: null,
              refusal: { refused: false, explicit: false, evidence: null },
              toolSet: {
                precision: 0.8,
                recall: 0.7,
                f1: 0.75,
                missing: [entry.tools[0].name],
                extra: [],
              },
              chainOrder: { lcs: 3, lcsRatio: 0.6, edgeF1: 0.5 },
              arguments: { checkedCalls: chain.length, problems: [] },
              nextK: null,
              planCost: null,
            }
          : null,
      usage: { inputTokens: 1800, outputTokens: 400 },
      latency_ms: 2100,
      attempts: 1,
      cached: false,
      ...(judgeError
        ? { judge_error: { reason: 'judge-parse-failure', message: 'no JSON object in the reply' } }
        : {}),
      notes: [],
      prediction: {
        schema_version: 1,
        status,
        repeat: 0,
        fingerprint: `${entry.id}-${modelIndex}`,
        prompt_version: 'planner-v1',
        parsed:
          status === 'ok'
            ? { kind: 'plan', plan: 'see response', toolChain: chain, schemaIssues: [] }
            : null,
        ...(status === 'parse_error' ? { parse_error: 'no JSON object found' } : {}),
        ...(status === 'error'
          ? { error: { kind: 'server', message: 'HTTP 503 after 6 retries', status: 503 } }
          : {}),
        usage: { inputTokens: 3000, outputTokens: 600 },
        latency_ms: 5400,
        finish_reason: 'stop',
        attempts: 1,
        cached: false,
        facets: {
          split: entry.split,
          regime: entry.holistic ? 'Holistic' : 'Step-wise',
          source: 'bench',
          sourceSubset: null,
          taskFamily: entry.family,
          taskCategory: entry.category,
          horizon: entry.horizon,
          stage: entry.stage,
          distractorLevel: entry.level,
          unsolvableType: entry.unsolvableType,
          modality: entry.modality,
          referenceSteps: entry.steps,
          baseCaseKey: entry.base,
        },
      },
    },
  };
}

/** 12 models × 4,209 cases = 50,508 judgement lines. */
export function benchLines() {
  const cases = benchCases();
  const next = mulberry32(11);
  return MODELS.flatMap((model, modelIndex) =>
    cases.map((entry) => benchLine(entry, model, modelIndex, next)),
  );
}
