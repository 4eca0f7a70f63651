/**
 * Fig. 18's intent in this project's words: price the tool bank, name cheaper composite tools over
 * consecutive reference steps, and add tempting but worse trap tools. The composites' parameters
 * are merged deterministically (efficiency-bank.ts), so the reference stays computable.
 */
import type { Case } from '../../dataset/case.js';
import { versionOf } from '../../settings/prompt.js';
import { combineTools, TRAP_KINDS, type Bank, type Trap } from '../efficiency-bank.js';
import type { ModelPrompt } from '../model.js';
import { NameSet } from '../names.js';
import { taskText } from './render.js';
import { readTool } from './tool-reply.js';

const SYSTEM = `You turn an agent task into a cost-aware planning task.
1. Give every listed tool a base cost, an integer from 1 (cheap, e.g. a local lookup) to 5 (expensive, e.g. a paid or slow service).
2. Propose 3 to 6 composite tools. Each performs 2 or 3 consecutive steps of the solution below in a single call and costs less than those steps together. Name each naturally and describe it as ordinary documentation; give the step numbers it covers.
3. Propose 2 to 4 trap tools: plausible tools a careless cost-aware agent might pick although they are worse: "overpriced" (does what a listed tool does, for more), "redundant" (bundles work the task needs with work it does not, costing more overall), or "off_target" (cheap but does something slightly different from what is needed). Describe them as ordinary documentation: never call a tool a trap, overpriced, redundant or suboptimal.
Answer with one JSON object and nothing else:
{"base_costs": {"tool_name": 3}, "composites": [{"steps": [1, 2], "name": "...", "description": "...", "cost": 2}], "traps": [{"kind": "overpriced", "name": "...", "description": "...", "parameters": {"type": "object", "properties": {}}, "cost": 6}]}`;

const USER = `{task}

## Solution steps (the reference tool chain)
{chain}`;

/** The version of this prompt's templates. */
export const EFFICIENCY_PROMPT_VERSION = versionOf('construct-efficiency', SYSTEM, USER);

/** The tool-bank prompt of a holistic case. */
export function efficiencyPrompt(parent: Case): ModelPrompt {
  const chain = parent.reference.toolChain
    .map((call, index) => `${index + 1}. ${call.name}(${JSON.stringify(call.arguments ?? {})})`)
    .join('\n');
  const task = taskText({
    query: parent.input.query,
    system_prompt: parent.input.systemPrompt,
    tools: parent.input.tools,
  });
  return {
    promptVersion: EFFICIENCY_PROMPT_VERSION,
    system: SYSTEM,
    user: USER.replace('{task}', task).replace('{chain}', chain),
  };
}

type Read<T> = { ok: true; value: T } | { ok: false; reason: string };
const isCost = (value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

function readCosts(value: unknown, parent: Case): Read<Map<string, number>> {
  if (!value || typeof value !== 'object') return { ok: false, reason: 'no base_costs object' };
  const costs = new Map<string, number>();
  for (const tool of parent.input.tools) {
    const cost = (value as Record<string, unknown>)[tool.name];
    if (!isCost(cost, 1, 5))
      return { ok: false, reason: `base cost of ${tool.name} is not an integer from 1 to 5` };
    costs.set(tool.name, cost);
  }
  return { ok: true, value: costs };
}

function readComposites(
  value: unknown,
  parent: Case,
  costs: Map<string, number>,
  taken: NameSet,
): Read<Bank['composites']> {
  if (!Array.isArray(value)) return { ok: false, reason: 'no composites list' };
  const chain = parent.reference.toolChain.map((call) => call.name);
  const out: Bank['composites'] = [];
  for (const item of value as Array<Record<string, unknown>>) {
    const steps = Array.isArray(item?.steps) ? item.steps : [];
    const consecutive =
      steps.length >= 2 &&
      steps.length <= 3 &&
      steps.every(
        (step, index) =>
          Number.isInteger(step) &&
          step === (steps[0] as number) + index &&
          step >= 1 &&
          step <= chain.length,
      );
    if (!consecutive)
      return {
        ok: false,
        reason: `composite ${JSON.stringify(item?.name)} does not cover 2–3 consecutive steps`,
      };
    const parts = steps.map((step) => chain[(step as number) - 1]!);
    const total = parts.reduce((sum, name) => sum + (costs.get(name) ?? 0), 0);
    if (!isCost(item.cost, 1, total - 1))
      return {
        ok: false,
        reason: `composite ${JSON.stringify(item.name)} must cost an integer below its parts' ${total}`,
      };
    if (out.some((composite) => composite.parts.join('\u0000') === parts.join('\u0000'))) continue;
    const read = readTool({ name: item.name, description: item.description }, taken);
    if (!read.ok) return { ok: false, reason: `composite: ${read.reason}` };
    const merged = combineTools(parts, parent.input.tools, '_', item.cost);
    out.push({
      ...merged,
      tool: { ...merged.tool, name: read.tool.name, description: read.tool.description },
    });
  }
  return out.length >= 3 && out.length <= 6
    ? { ok: true, value: out }
    : { ok: false, reason: `${out.length} distinct composites (3–6 needed)` };
}

function readTraps(value: unknown, taken: NameSet): Read<Trap[]> {
  if (!Array.isArray(value)) return { ok: false, reason: 'no traps list' };
  const out: Trap[] = [];
  for (const item of value as Array<Record<string, unknown>>) {
    const kind = TRAP_KINDS.find((known) => known === item?.kind);
    if (!kind)
      return {
        ok: false,
        reason: `trap kind ${JSON.stringify(item?.kind)} is not one of ${TRAP_KINDS.join(', ')}`,
      };
    if (!isCost(item.cost, 1))
      return { ok: false, reason: `trap ${JSON.stringify(item.name)} has no integer cost` };
    const read = readTool(item, taken);
    if (!read.ok) return { ok: false, reason: `trap: ${read.reason}` };
    out.push({ kind, tool: { ...read.tool, cost: item.cost } });
  }
  return out.length >= 2 && out.length <= 4
    ? { ok: true, value: out }
    : { ok: false, reason: `${out.length} traps (2–4 needed)` };
}

/** The model's bank, checked end to end; any flaw rejects the whole reply (the step then falls back). */
export function readEfficiencyReply(
  value: Record<string, unknown>,
  parent: Case,
): { ok: true; bank: Bank } | { ok: false; reason: string } {
  const costs = readCosts(value.base_costs, parent);
  if (!costs.ok) return costs;
  const taken = new NameSet(parent.input.tools.map((tool) => tool.name));
  const composites = readComposites(value.composites, parent, costs.value, taken);
  if (!composites.ok) return composites;
  const traps = readTraps(value.traps, taken);
  if (!traps.ok) return traps;
  return {
    ok: true,
    bank: { costs: costs.value, composites: composites.value, traps: traps.value },
  };
}
