/**
 * The cost-annotated tool bank of B.5: composite tools over consecutive reference steps, their
 * merged parameters, and the cheapest cover of the reference chain (the efficiency reference).
 */
import type { ToolCall } from '../dataset/case.js';
import { firstSentence, type ChainNode } from './case-record.js';
import type { SourceTool } from './source-record.js';

/** A run of 2 or 3 consecutive reference steps a composite tool merges. */
export interface Window {
  start: number;
  names: string[];
}

/** A composite tool, the tools it runs in order, and how each part's argument names map to its own. */
export interface Composite {
  tool: SourceTool & { cost: number };
  parts: string[];
  /** Per part: its argument name → the composite's argument name. */
  mapping: Array<Record<string, string>>;
}

/** Every window of 2 and 3 steps, one per distinct sequence of tool names (the first occurrence). */
export function distinctWindows(chain: readonly ToolCall[]): Window[] {
  const seen = new Map<string, Window>();
  for (const size of [2, 3]) {
    for (let start = 0; start + size <= chain.length; start++) {
      const names = chain.slice(start, start + size).map((call) => call.name);
      const key = names.join('\u0000');
      if (!seen.has(key)) seen.set(key, { start, names });
    }
  }
  return [...seen.values()];
}

function propertiesOf(tool: SourceTool | undefined): Record<string, unknown> {
  const properties = tool?.parameters?.properties;
  return properties && typeof properties === 'object' && !Array.isArray(properties)
    ? (properties as Record<string, unknown>)
    : {};
}

function requiredOf(tool: SourceTool | undefined): string[] {
  const required = tool?.parameters?.required;
  return Array.isArray(required)
    ? required.filter((name): name is string => typeof name === 'string')
    : [];
}

/**
 * One schema over several tools' parameters: a name only one part uses keeps it; a name several
 * parts use becomes `NAME_I` (I the part's 1-based position) for each of them.
 */
export function mergeParameters(parts: readonly (SourceTool | undefined)[]): {
  parameters: Record<string, unknown>;
  mapping: Array<Record<string, string>>;
} {
  const uses = new Map<string, number>();
  for (const part of parts)
    for (const name of Object.keys(propertiesOf(part))) uses.set(name, (uses.get(name) ?? 0) + 1);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const mapping = parts.map((part, index) => {
    const map: Record<string, string> = {};
    for (const [name, schema] of Object.entries(propertiesOf(part))) {
      const merged = (uses.get(name) ?? 0) > 1 ? `${name}_${index + 1}` : name;
      map[name] = merged;
      properties[merged] = schema;
      if (requiredOf(part).includes(name)) required.push(merged);
    }
    return map;
  });
  return { parameters: { type: 'object', properties, required }, mapping };
}

/** A composite (or bundle) tool over `parts`, named by joining their names with `joiner`. */
export function combineTools(
  parts: readonly string[],
  tools: readonly SourceTool[],
  joiner: string,
  cost: number,
): Composite {
  const found = parts.map((name) => tools.find((tool) => tool.name === name));
  const { parameters, mapping } = mergeParameters(found);
  const described = parts
    .map((name, index) => `${name}: ${firstSentence(found[index]?.description ?? name)}`)
    .join(' ');
  const description = `Runs ${parts.join(', then ')} in one call. ${described}`;
  return {
    tool: { name: parts.join(joiner), description, parameters, cost },
    parts: [...parts],
    mapping,
  };
}

/** A window's calls as one call of a composite: each part's arguments under the composite's names. */
function compositeArguments(
  composite: Composite,
  calls: readonly ToolCall[],
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  calls.forEach((call, index) => {
    const args = call.arguments;
    if (!args || typeof args !== 'object' || Array.isArray(args)) {
      merged[`step_${index + 1}_arguments`] = args;
      return;
    }
    for (const [name, value] of Object.entries(args))
      merged[composite.mapping[index]![name] ?? name] = value;
  });
  return merged;
}

type Choice = { cost: number; calls: number; take: Composite | null };

/** The cheapest way to cover the chain from `index` on, given the best covers of every later index. */
function bestFrom(
  index: number,
  chain: readonly ToolCall[],
  costs: ReadonlyMap<string, number>,
  composites: readonly Composite[],
  best: readonly Choice[],
): Choice {
  const after = best[index + 1]!;
  let choice: Choice = {
    cost: (costs.get(chain[index]!.name) ?? 0) + after.cost,
    calls: after.calls + 1,
    take: null,
  };
  for (const composite of composites) {
    const size = composite.parts.length;
    if (
      index + size > chain.length ||
      composite.parts.some((name, offset) => chain[index + offset]!.name !== name)
    )
      continue;
    const rest = best[index + size]!;
    const option = {
      cost: composite.tool.cost + rest.cost,
      calls: rest.calls + 1,
      take: composite,
    };
    if (option.cost < choice.cost || (option.cost === choice.cost && option.calls < choice.calls))
      choice = option;
  }
  return choice;
}

/** The chain node of one composite call covering `calls`. */
function compositeNode(take: Composite, calls: readonly ToolCall[]): ChainNode {
  const reason = calls
    .map((call) => call.reason)
    .filter(Boolean)
    .join(' Then: ');
  return {
    name: take.tool.name,
    parameter_description: compositeArguments(take, calls),
    reason: reason || `Runs ${take.parts.join(' then ')} in one call.`,
  };
}

/**
 * The cheapest cover of the chain by single calls and composites (dynamic programming from the
 * end; ties go to fewer calls, then to the single call), with its total cost.
 */
export function cheapestCover(
  chain: readonly ToolCall[],
  costs: ReadonlyMap<string, number>,
  composites: readonly Composite[],
): { nodes: ChainNode[]; cost: number } {
  const best: Choice[] = new Array<Choice>(chain.length + 1);
  best[chain.length] = { cost: 0, calls: 0, take: null };
  for (let index = chain.length - 1; index >= 0; index--)
    best[index] = bestFrom(index, chain, costs, composites, best);
  const nodes: ChainNode[] = [];
  for (let index = 0; index < chain.length;) {
    const { take } = best[index]!;
    if (take) {
      nodes.push(compositeNode(take, chain.slice(index, index + take.parts.length)));
      index += take.parts.length;
      continue;
    }
    const call = chain[index]!;
    nodes.push({
      name: call.name,
      parameter_description: call.arguments ?? {},
      reason: call.reason ?? '',
    });
    index += 1;
  }
  return { nodes, cost: best[0]!.cost };
}

/** Trap kinds of B.5. */
export const TRAP_KINDS = ['overpriced', 'redundant', 'off_target'] as const;
/** One of the trap kinds. */
export type TrapKind = (typeof TRAP_KINDS)[number];

/** A trap tool and its kind. */
export interface Trap {
  tool: SourceTool & { cost: number };
  kind: TrapKind;
}

/** The new tools of a bank, before they are placed among the listed ones. */
export interface Bank {
  costs: Map<string, number>;
  composites: Composite[];
  traps: Trap[];
}
