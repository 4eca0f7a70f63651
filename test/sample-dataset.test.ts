/**
 * The built-in sample (`sample/`): it loads cleanly through the real reader, covers every split and
 * facet the reports break down by, and its references are internally consistent, so that a
 * reference replay can be judged correct on every case.
 */
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Case, SplitName, Tool, ToolCall } from '../src/dataset/case.js';
import { SPLITS, UNSOLVABLE_TYPES } from '../src/dataset/case.js';
import { stageOf } from '../src/dataset/facets.js';
import { readAllCases, SAMPLE_DATASET_DIR } from '../src/dataset/read-cases.js';

const { cases, issues } = await readAllCases(SAMPLE_DATASET_DIR);

const bySplit = (split: SplitName) => cases.filter((c) => c.split === split);
const byId = new Map(cases.map((c) => [c.id, c]));
const toolByName = (c: Case, name: string) => c.input.tools.find((tool) => tool.name === name);

/** Every reference call of a case: the tool chain, the next-k steps and the remaining steps. */
function referenceCalls(c: Case): ToolCall[] {
  return [
    ...c.reference.toolChain,
    ...c.reference.groundTruthSteps.flatMap((step) => step.toolCalls),
    ...c.reference.remainingSteps.flatMap((step) => step.toolCalls),
  ];
}

const JSON_TYPES: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
};

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  items?: { type?: string };
}

/** Schema problems of one call's arguments: missing required, undeclared, wrong JSON type, value outside the enum. */
function argumentProblems(tool: Tool, args: unknown): string[] {
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return ['arguments are not an object'];
  const schema = (tool.parameters ?? {}) as {
    properties?: Record<string, PropertySchema>;
    required?: string[];
  };
  const properties = schema.properties ?? {};
  const problems: string[] = [];
  for (const key of schema.required ?? [])
    if (!(key in args)) problems.push(`missing required "${key}"`);
  for (const [key, value] of Object.entries(args)) {
    const property = properties[key];
    if (!property) {
      problems.push(`undeclared "${key}"`);
      continue;
    }
    const typeCheck = property.type ? JSON_TYPES[property.type] : undefined;
    if (typeCheck && !typeCheck(value)) problems.push(`"${key}" is not ${property.type}`);
    if (property.enum && !property.enum.includes(value))
      problems.push(`"${key}" = ${JSON.stringify(value)} is outside the enum`);
    const itemCheck = property.items?.type ? JSON_TYPES[property.items.type] : undefined;
    if (Array.isArray(value) && itemCheck && !value.every(itemCheck))
      problems.push(`items of "${key}" are not all ${property.items!.type}`);
  }
  return problems;
}

describe('sample dataset', () => {
  it('loads through the reader with zero issues', () => {
    expect(issues).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(7 * 8);
    for (const c of cases) expect(c.id).toMatch(/^sample-(hp|hx|hu|sp|sx|sb|he)-\d{2}$/);
  });

  it('carries every released field on every record', () => {
    const released = [
      'id',
      'split',
      'planning_regime',
      'task_family',
      'task_category',
      'source',
      'source_subset',
      'query',
      'tools_json',
      'tool_names_json',
      'plan',
      'tool_chain_json',
      'unsolvable_type',
      'extraneous_tool_names_json',
      'prediction_horizon',
      'trajectory_prefix_json',
      'ground_truth_steps_json',
      'reference_remaining_steps_json',
      'broken_tool_name',
      'replacement_tool_json',
      'files',
    ];
    for (const c of cases) {
      for (const field of released) expect(c.record, `${c.id}.${field}`).toHaveProperty(field);
      expect(c.record.source).toBe('apb-sample');
      expect(JSON.parse(c.record.tool_names_json as string)).toEqual(
        c.input.tools.map((tool) => tool.name),
      );
      expect(c.record.steps, c.id).toBe(
        c.split === 'holistic_unsolvable' ? 0 : c.reference.toolChain.length,
      );
    }
    const withSystemPrompt = cases.filter((c) => c.input.systemPrompt).length;
    expect(withSystemPrompt / cases.length).toBeGreaterThan(0.25);
  });

  it('has at least 8 cases in each of the 7 splits', () => {
    for (const split of SPLITS) expect(bySplit(split).length, split).toBeGreaterThanOrEqual(8);
  });

  it('covers every unsolvable type at least twice, with empty chains and an explanation', () => {
    const unsolvable = bySplit('holistic_unsolvable');
    for (const type of UNSOLVABLE_TYPES) {
      expect(
        unsolvable.filter((c) => c.facets.unsolvableType === type).length,
        type,
      ).toBeGreaterThanOrEqual(2);
    }
    for (const c of unsolvable) {
      expect(c.reference.toolChain, c.id).toEqual([]);
      expect(c.reference.plan?.length ?? 0, c.id).toBeGreaterThan(40);
      if (c.facets.unsolvableType === 'visual_missing') expect(c.input.files, c.id).toEqual([]);
    }
  });

  it('covers distractor levels 2, 4, 6, 8 and 10 in both extraneous splits, at shuffled positions', () => {
    for (const split of ['holistic_tool_extraneous', 'step_wise_tool_extraneous'] as const) {
      const levels = new Set(bySplit(split).map((c) => c.facets.distractorLevel));
      for (const level of [2, 4, 6, 8, 10])
        expect(levels.has(level), `${split} level ${level}`).toBe(true);
      for (const c of bySplit(split)) {
        const names = c.input.tools.map((tool) => tool.name);
        const positions = c.reference.extraneousToolNames.map((name) => names.indexOf(name));
        expect(
          positions.every((position) => position >= 0),
          c.id,
        ).toBe(true);
        // Not simply appended: some distractor sits before the last real tool.
        const lastReal = Math.max(
          ...names.map((name, index) =>
            c.reference.extraneousToolNames.includes(name) ? -1 : index,
          ),
        );
        expect(Math.min(...positions), c.id).toBeLessThan(lastReal);
        // The reference never uses a distractor.
        for (const call of referenceCalls(c))
          expect(c.reference.extraneousToolNames, c.id).not.toContain(call.name);
      }
    }
  });

  it('covers horizons 1/2/3 and stages early/middle/late in step_wise_planning, consistent with the cut', () => {
    const stepWise = bySplit('step_wise_planning');
    for (const horizon of [1, 2, 3])
      expect(
        stepWise.filter((c) => c.facets.horizon === horizon).length,
        `h${horizon}`,
      ).toBeGreaterThanOrEqual(3);
    for (const stage of ['early', 'middle', 'late'] as const)
      expect(stepWise.filter((c) => c.facets.stage === stage).length, stage).toBeGreaterThanOrEqual(
        2,
      );
    const shapes = new Set(
      stepWise.map((c) =>
        typeof JSON.parse(c.record.trajectory_prefix_json as string)[0]?.role === 'string'
          ? 'openai'
          : 'converted',
      ),
    );
    expect([...shapes].sort()).toEqual(['converted', 'openai']);
    for (const c of cases.filter((x) => x.input.regime === 'Step-wise')) {
      expect(c.facets.stage, c.id).toBe(stageOf(c.input, c.reference));
      expect(c.reference.groundTruthSteps.length, c.id).toBe(c.input.horizon);
      expect(c.reference.remainingSteps.slice(0, c.input.horizon!), c.id).toEqual(
        c.reference.groundTruthSteps,
      );
      expect(c.reference.plan, c.id).toBeNull();
    }
  });

  it('has at least 3 image cases, one with both start and goal screenshots, all PNGs small', () => {
    const imageCases = cases.filter((c) => c.facets.modality === 'image');
    expect(imageCases.length).toBeGreaterThanOrEqual(3);
    const labels = (c: Case) => c.input.files.map((file) => file.label);
    expect(
      cases.some(
        (c) => labels(c).includes('start_screenshot') && labels(c).includes('goal_screenshot'),
      ),
    ).toBe(true);
    for (const file of cases.flatMap((c) => c.input.files)) {
      expect(statSync(file.absolutePath).size, file.path).toBeLessThan(40 * 1024);
      if (file.kind === 'image') expect(file.mimeType).toBe('image/png');
    }
  });

  it('names only listed tools in every reference call and in the executed prefixes', () => {
    for (const c of cases) {
      const listed = new Set(c.input.tools.map((tool) => tool.name));
      const prefixCalls = c.input.trajectoryPrefix.flatMap((message) => message.toolCalls);
      for (const call of [...referenceCalls(c), ...prefixCalls])
        expect(listed.has(call.name), `${c.id}: ${call.name}`).toBe(true);
      if (c.reference.replacementTool)
        expect(listed.has(c.reference.replacementTool.name), c.id).toBe(true);
      if (c.reference.brokenToolName)
        expect(listed.has(c.reference.brokenToolName), c.id).toBe(true);
      if (c.split !== 'holistic_unsolvable')
        expect(referenceCalls(c).length, c.id).toBeGreaterThan(0);
    }
  });

  it('gives every reference call all required arguments and nothing undeclared, with valid types and enums', () => {
    const problems: string[] = [];
    for (const c of cases) {
      const calls = [
        ...referenceCalls(c),
        ...c.input.trajectoryPrefix.flatMap((message) => message.toolCalls),
      ];
      for (const call of calls) {
        const tool = toolByName(c, call.name);
        if (!tool) continue; // reported by the test above
        for (const problem of argumentProblems(tool, call.arguments))
          problems.push(`${c.id}: ${call.name}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('links every extraneous variant to a base case with the same query and reference', () => {
    const pairs = [
      ['holistic_tool_extraneous', 'holistic_planning'],
      ['step_wise_tool_extraneous', 'step_wise_planning'],
    ] as const;
    for (const [split, baseSplit] of pairs) {
      for (const variant of bySplit(split)) {
        const baseId = variant.record.base_case_id as string;
        const base = byId.get(baseId);
        expect(base?.split, `${variant.id} -> ${baseId}`).toBe(baseSplit);
        expect(variant.input.query).toBe(base!.input.query);
        expect(variant.facets.baseCaseKey).toBe(base!.facets.baseCaseKey);
        expect(variant.reference.toolChain).toEqual(base!.reference.toolChain);
        expect(variant.reference.plan).toBe(base!.reference.plan);
        if (baseSplit === 'step_wise_planning') {
          expect(variant.input.horizon).toBe(base!.input.horizon);
          const names = (c: Case) =>
            c.reference.groundTruthSteps.map((step) => step.toolCalls.map((call) => call.name));
          expect(names(variant)).toEqual(names(base!));
          expect(variant.input.trajectoryPrefix).toEqual(base!.input.trajectoryPrefix);
        }
        // The variant's bank is the base bank plus exactly the distractors.
        const extra = variant.input.tools
          .map((tool) => tool.name)
          .filter((name) => !toolByName(base!, name));
        expect(extra.sort()).toEqual([...variant.reference.extraneousToolNames].sort());
      }
    }
  });

  it('makes every tool-broken case recoverable through its replacement', () => {
    for (const c of bySplit('step_wise_tool_broken')) {
      const broken = c.reference.brokenToolName!;
      const replacement = c.reference.replacementTool!;
      expect(c.input.horizon, c.id).toBe(1);
      expect(replacement.name, c.id).not.toBe(broken);
      expect(replacement.name + replacement.description, c.id).not.toMatch(
        /replacement|backup|fallback/i,
      );
      expect(replacement.parameters, c.id).toEqual(toolByName(c, broken)!.parameters);
      const prefix = c.input.trajectoryPrefix;
      const lastCall = [...prefix].reverse().find((message) => message.toolCalls.length > 0)!
        .toolCalls[0]!;
      expect(lastCall.name, c.id).toBe(broken);
      expect(prefix[prefix.length - 1]!.role, c.id).toBe('tool');
      expect(prefix[prefix.length - 1]!.text, c.id).toMatch(
        /\b(503|410|timeout|unavailable|gone)\b/i,
      );
      const [next] = c.reference.groundTruthSteps[0]!.toolCalls;
      expect(next!.name, c.id).toBe(replacement.name);
      expect(next!.arguments, c.id).toEqual(lastCall.arguments);
      for (const call of c.reference.remainingSteps.flatMap((step) => step.toolCalls))
        expect(call.name, c.id).not.toBe(broken);
    }
  });

  it('prices every efficiency tool and makes the reference chain no dearer than the separate calls', () => {
    const costOf = (c: Case, name: string) => {
      const cost = toolByName(c, name)?.cost;
      if (typeof cost !== 'number') throw new Error(`${c.id}: no cost for ${name}`);
      return cost;
    };
    for (const c of bySplit('holistic_efficiency')) {
      for (const tool of c.input.tools)
        expect(typeof tool.cost, `${c.id}: ${tool.name}`).toBe('number');
      const referenceCost = c.reference.toolChain.reduce(
        (sum, call) => sum + costOf(c, call.name),
        0,
      );
      // The plan states the same work done with the original tools: "Separate calls: a -> b -> c = 1 + 2 + 3 = 6."
      const match = /^Separate calls: (.+) = [\d .+]+ = (\d+(?:\.\d+)?)\.$/m.exec(
        c.reference.plan ?? '',
      );
      expect(match, c.id).not.toBeNull();
      const separate = match![1]!.split(' -> ');
      const separateCost = separate.reduce((sum, name) => sum + costOf(c, name), 0);
      expect(separateCost, c.id).toBe(Number(match![2]));
      expect(referenceCost, c.id).toBeLessThanOrEqual(separateCost);
      // And no dearer than the base case's own (non-composite) reference chain, priced in this bank.
      const base = byId.get(c.record.base_case_id as string)!;
      expect(base.split, c.id).toBe('holistic_planning');
      expect(base.input.query, c.id).toBe(c.input.query);
      const baseCost = base.reference.toolChain.reduce(
        (sum, call) => sum + costOf(c, call.name),
        0,
      );
      expect(referenceCost, c.id).toBeLessThanOrEqual(baseCost);
      expect(c.facets.referenceSteps, c.id).toBe(c.reference.toolChain.length);
    }
  });
});
