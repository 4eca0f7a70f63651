#!/usr/bin/env node
/**
 * Writes the apb sample dataset (`sample/data/{split}.jsonl`) from the case definitions in this
 * folder. Deterministic: two runs give byte-identical files. Not run by the tests, which read the
 * written files; run it by hand after editing a case:
 *
 *   node sample/tools/build-data.mjs
 *
 * Variants are derived here, so they cannot drift from their base cases: extraneous variants add
 * distractors to an unchanged base; tool-broken variants cut a step-wise base at its next call and
 * fail that call; efficiency variants keep a holistic base's query. The script checks every
 * reference call against its tool's schema before writing anything.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOLISTIC_BASES, shaped } from './cases-holistic.mjs';
import { EFFICIENCY, UNSOLVABLE } from './cases-holistic-variants.mjs';
import { STEP_WISE_BASES } from './cases-step-wise.mjs';
import { call, inner, insertAtShuffledPositions, openai, shuffle, toolName } from './lib.mjs';

const DATA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data');
const SOURCE = 'apb-sample';

// ---------------------------------------------------------------------------------------------
// Record assembly
// ---------------------------------------------------------------------------------------------

const REGIME = {
  holistic_planning: 'Holistic',
  holistic_tool_extraneous: 'Holistic',
  holistic_unsolvable: 'Holistic',
  holistic_efficiency: 'Holistic',
  step_wise_planning: 'Step-wise',
  step_wise_tool_extraneous: 'Step-wise',
  step_wise_tool_broken: 'Step-wise',
};

const json = (value) => JSON.stringify(value);

/** One record with every released field, in the released order, then this project's optional fields. */
function record(fields) {
  const out = {
    id: fields.id,
    split: fields.split,
    planning_regime: REGIME[fields.split],
    task_family: fields.family,
    task_category: fields.category,
    source: SOURCE,
    source_subset: fields.subset,
    query: fields.query,
    tools_json: json(fields.tools),
    tool_names_json: json(fields.tools.map(toolName)),
    plan: fields.plan ?? null,
    tool_chain_json: json(fields.chain ?? []),
    unsolvable_type: fields.unsolvableType ?? null,
    extraneous_tool_names_json: json(fields.extraneous ?? []),
    prediction_horizon: fields.horizon ?? null,
    trajectory_prefix_json: json(fields.prefix ?? []),
    ground_truth_steps_json: json(fields.groundTruth ?? []),
    reference_remaining_steps_json: json(fields.remaining ?? []),
    broken_tool_name: fields.brokenToolName ?? null,
    replacement_tool_json: fields.replacement ? json(fields.replacement) : null,
    files: fields.files ?? [],
  };
  if (fields.systemPrompt) out.system_prompt = fields.systemPrompt;
  if (fields.stage) out.stage = fields.stage;
  if (fields.baseCaseId) out.base_case_id = fields.baseCaseId;
  out.steps = fields.steps;
  return out;
}

const id = (prefix, n) => `sample-${prefix}-${n}`;

/** Early / middle / late from the share of executed assistant steps (the reader's rule). */
function stageOf(done, total) {
  const ratio = done / total;
  if (ratio < 0.375) return 'early';
  if (ratio <= 0.625) return 'middle';
  return 'late';
}

// ---------------------------------------------------------------------------------------------
// Holistic
// ---------------------------------------------------------------------------------------------

function holisticPlanning(base) {
  return record({
    id: id('hp', base.n),
    split: 'holistic_planning',
    family: base.family,
    category: base.category,
    subset: base.subset,
    query: base.query,
    systemPrompt: base.systemPrompt,
    tools: shaped(base, base.tools),
    plan: base.plan,
    chain: base.chain,
    files: base.files,
    baseCaseId: id('hp', base.n),
    steps: base.chain.length,
  });
}

function holisticExtraneous(base, n) {
  const distractors = shaped(base, base.distractors.slice(0, base.distractorLevel));
  if (distractors.length !== base.distractorLevel) throw new Error(`hp-${base.n}: not enough distractors`);
  return record({
    id: id('hx', n),
    split: 'holistic_tool_extraneous',
    family: base.family,
    category: base.category,
    subset: base.subset,
    query: base.query,
    systemPrompt: base.systemPrompt,
    tools: insertAtShuffledPositions(shaped(base, base.tools), distractors, `hx-${n}`),
    plan: base.plan,
    chain: base.chain,
    extraneous: distractors.map(toolName),
    files: base.files,
    baseCaseId: id('hp', base.n),
    steps: base.chain.length,
  });
}

function holisticUnsolvable(definition) {
  const base = definition.from ? HOLISTIC_BASES.find((candidate) => candidate.n === definition.from) : null;
  const source = base ?? definition;
  let tools = shaped(source, source.tools);
  if (definition.type === 'tool_removal') {
    tools = tools.filter((definitionTool) => toolName(definitionTool) !== definition.removeTool);
    if (tools.length === source.tools.length) throw new Error(`hu-${definition.n}: ${definition.removeTool} not in the base tools`);
  }
  return record({
    id: id('hu', definition.n),
    split: 'holistic_unsolvable',
    family: source.family,
    category: source.category,
    subset: source.subset,
    query: source.query,
    systemPrompt: source.systemPrompt,
    tools,
    plan: definition.plan,
    chain: [],
    unsolvableType: definition.type,
    files: definition.type === 'visual_missing' ? [] : source.files,
    baseCaseId: base ? id('hp', base.n) : undefined,
    steps: 0,
  });
}

function holisticEfficiency(definition) {
  const base = HOLISTIC_BASES.find((candidate) => candidate.n === definition.from);
  const priced = (list, costs) =>
    list.map((definitionTool) => {
      const cost = costs[definitionTool.name];
      if (typeof cost !== 'number') throw new Error(`he-${definition.n}: no cost for ${definitionTool.name}`);
      return base.openaiTools ? openai({ ...definitionTool, cost }) : { ...definitionTool, cost };
    });
  const tools = shuffle(
    [...priced(base.tools, definition.costs), ...priced(definition.composites, definition.compositeCosts), ...priced(definition.traps, definition.trapCosts)],
    `he-${definition.n}`,
  );
  const costOf = (name) => {
    const found = tools.find((candidate) => toolName(candidate) === name);
    if (!found) throw new Error(`he-${definition.n}: ${name} is not in the bank`);
    return found.cost;
  };
  const total = (names) => names.reduce((sum, name) => sum + costOf(name), 0);
  const chainNames = definition.chain.map((node) => node.name);
  const separateTotal = total(definition.separate);
  const chainTotal = total(chainNames);
  if (chainTotal >= separateTotal) throw new Error(`he-${definition.n}: the reference is not cheaper than separate calls`);
  const plan = [
    ...definition.planSteps,
    `Total cost: ${chainNames.map(costOf).join(' + ')} = ${chainTotal}.`,
    `Separate calls: ${definition.separate.join(' -> ')} = ${definition.separate.map(costOf).join(' + ')} = ${separateTotal}.`,
  ].join('\n');
  return record({
    id: id('he', definition.n),
    split: 'holistic_efficiency',
    family: base.family,
    category: base.category,
    subset: base.subset,
    query: base.query,
    systemPrompt: base.systemPrompt,
    tools,
    plan,
    chain: definition.chain,
    files: base.files,
    baseCaseId: id('hp', base.n),
    steps: definition.chain.length,
  });
}

// ---------------------------------------------------------------------------------------------
// Step-wise
// ---------------------------------------------------------------------------------------------

/** The executed prefix, in the converted shape or as OpenAI chat messages. */
function buildPrefix(base, executed) {
  if (base.shape === 'openai') {
    const messages = [{ role: 'user', content: base.query }];
    executed.forEach(({ node, thought, observation }, index) => {
      const callId = `call_${base.n}_${index + 1}`;
      messages.push({
        role: 'assistant',
        content: thought,
        tool_calls: [{ id: callId, type: 'function', function: { name: node.name, arguments: JSON.stringify(node.parameter_description) } }],
      });
      messages.push({ role: 'tool', tool_call_id: callId, name: node.name, content: observation });
    });
    return messages;
  }
  return executed.map(({ node, thought, observation }, index) => ({
    step: index + 1,
    thought,
    tool: node.name,
    arguments: node.parameter_description,
    observation,
  }));
}

function executedSteps(base) {
  if (base.prefix.length !== base.cut) throw new Error(`sp-${base.n}: ${base.prefix.length} observations for a cut of ${base.cut}`);
  return base.prefix.map((entry, index) => ({ node: base.chain[index], ...entry }));
}

function stepWiseFields(base) {
  const remaining = base.chain.slice(base.cut);
  if (base.horizon > remaining.length) throw new Error(`sp-${base.n}: horizon ${base.horizon} > ${remaining.length} steps left`);
  return {
    family: base.family,
    category: base.category,
    subset: base.subset,
    query: base.query,
    systemPrompt: base.systemPrompt,
    chain: base.chain,
    horizon: base.horizon,
    prefix: buildPrefix(base, executedSteps(base)),
    groundTruth: remaining.slice(0, base.horizon),
    remaining,
    files: base.files,
    stage: stageOf(base.cut, base.chain.length),
    steps: base.chain.length,
  };
}

function stepWisePlanning(base) {
  return record({ id: id('sp', base.n), split: 'step_wise_planning', tools: shaped(base, base.tools), baseCaseId: id('sp', base.n), ...stepWiseFields(base) });
}

function stepWiseExtraneous(base, n) {
  const distractors = shaped(base, base.distractors.slice(0, base.distractorLevel));
  if (distractors.length !== base.distractorLevel) throw new Error(`sp-${base.n}: not enough distractors`);
  return record({
    id: id('sx', n),
    split: 'step_wise_tool_extraneous',
    tools: insertAtShuffledPositions(shaped(base, base.tools), distractors, `sx-${n}`),
    extraneous: distractors.map(toolName),
    baseCaseId: id('sp', base.n),
    ...stepWiseFields(base),
  });
}

function stepWiseBroken(base, n) {
  const failing = base.chain[base.cut];
  const brokenTool = base.tools.find((candidate) => candidate.name === failing.name);
  const replacementTool = {
    name: base.broken.replacement.name,
    description: base.broken.replacement.description,
    parameters: structuredClone(brokenTool.parameters),
  };
  const replacement = shaped(base, [replacementTool])[0];
  const rename = (node) => (node.name === failing.name ? call(replacementTool.name, node.parameter_description, node.reason) : node);
  const remaining = [call(replacementTool.name, failing.parameter_description, base.broken.reason), ...base.chain.slice(base.cut + 1).map(rename)];
  const executed = [...executedSteps(base), { node: failing, thought: failing.reason, observation: base.broken.error }];
  const chain = [...base.chain.slice(0, base.cut), ...remaining];
  return record({
    id: id('sb', n),
    split: 'step_wise_tool_broken',
    family: base.family,
    category: base.category,
    subset: base.subset,
    query: base.query,
    systemPrompt: base.systemPrompt,
    tools: insertAtShuffledPositions(shaped(base, base.tools), [replacement], `sb-${n}`),
    chain,
    horizon: 1,
    prefix: buildPrefix(base, executed),
    groundTruth: remaining.slice(0, 1),
    remaining,
    brokenToolName: failing.name,
    replacement,
    files: base.files,
    stage: stageOf(executed.length, executed.length + remaining.length),
    baseCaseId: id('sp', base.n),
    steps: chain.length,
  });
}

// ---------------------------------------------------------------------------------------------
// Checks (the same rules the sample test asserts, so a bad edit fails here first)
// ---------------------------------------------------------------------------------------------

const TYPE_CHECKS = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  array: (value) => Array.isArray(value),
  object: (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
};

function argumentProblems(definitionTool, args) {
  const schema = inner(definitionTool).parameters ?? { properties: {}, required: [] };
  const properties = schema.properties ?? {};
  const problems = [];
  for (const key of schema.required ?? []) if (!(key in args)) problems.push(`missing required "${key}"`);
  for (const [key, value] of Object.entries(args)) {
    const property = properties[key];
    if (!property) {
      problems.push(`undeclared "${key}"`);
      continue;
    }
    if (!TYPE_CHECKS[property.type](value)) problems.push(`"${key}" is not ${property.type}`);
    if (property.enum && !property.enum.includes(value)) problems.push(`"${key}" = ${JSON.stringify(value)} is not in the enum`);
    if (property.type === 'array' && property.items?.type) {
      value.forEach((item, index) => {
        if (!TYPE_CHECKS[property.items.type](item)) problems.push(`"${key}[${index}]" is not ${property.items.type}`);
      });
    }
  }
  return problems;
}

function check(records) {
  const problems = [];
  const ids = new Set();
  for (const rec of records) {
    if (ids.has(rec.id)) problems.push(`${rec.id}: duplicate id`);
    ids.add(rec.id);
    const tools = JSON.parse(rec.tools_json);
    const byName = new Map(tools.map((definitionTool) => [toolName(definitionTool), definitionTool]));
    if (byName.size !== tools.length) problems.push(`${rec.id}: duplicate tool names`);
    const calls = [
      ...JSON.parse(rec.tool_chain_json),
      ...JSON.parse(rec.ground_truth_steps_json),
      ...JSON.parse(rec.reference_remaining_steps_json),
    ];
    const prefix = JSON.parse(rec.trajectory_prefix_json);
    for (const entry of prefix) {
      if (entry.tool) calls.push({ name: entry.tool, parameter_description: entry.arguments });
      for (const toolCall of entry.tool_calls ?? []) calls.push({ name: toolCall.function.name, parameter_description: JSON.parse(toolCall.function.arguments) });
    }
    for (const node of calls) {
      const definitionTool = byName.get(node.name);
      if (!definitionTool) {
        problems.push(`${rec.id}: ${node.name} is not a listed tool`);
        continue;
      }
      for (const problem of argumentProblems(definitionTool, node.parameter_description)) problems.push(`${rec.id}: ${node.name}: ${problem}`);
    }
    for (const name of JSON.parse(rec.extraneous_tool_names_json)) if (!byName.has(name)) problems.push(`${rec.id}: distractor ${name} missing`);
    if (rec.replacement_tool_json && !byName.has(toolName(JSON.parse(rec.replacement_tool_json)))) problems.push(`${rec.id}: replacement not listed`);
  }
  if (problems.length > 0) throw new Error(`sample data problems:\n${problems.join('\n')}`);
}

// ---------------------------------------------------------------------------------------------

function build() {
  const splits = {
    holistic_planning: HOLISTIC_BASES.map(holisticPlanning),
    holistic_tool_extraneous: HOLISTIC_BASES.map((base, index) => holisticExtraneous(base, String(index + 1).padStart(2, '0'))),
    holistic_unsolvable: UNSOLVABLE.map(holisticUnsolvable),
    step_wise_planning: STEP_WISE_BASES.map(stepWisePlanning),
    step_wise_tool_extraneous: STEP_WISE_BASES.map((base, index) => stepWiseExtraneous(base, String(index + 1).padStart(2, '0'))),
    step_wise_tool_broken: STEP_WISE_BASES.map((base, index) => stepWiseBroken(base, String(index + 1).padStart(2, '0'))),
    holistic_efficiency: EFFICIENCY.map(holisticEfficiency),
  };
  check(Object.values(splits).flat());
  for (const [split, records] of Object.entries(splits)) {
    writeFileSync(path.join(DATA_DIR, `${split}.jsonl`), `${records.map((rec) => JSON.stringify(rec)).join('\n')}\n`);
    console.log(`${split}: ${records.length}`);
  }
}

build();
