/**
 * `efficiency` (paper B.5, Fig. 18): a holistic case's tool bank with costs. Each listed tool gets a
 * base cost of 1–5, 3–6 composite tools each merge 2–3 consecutive reference steps for less than
 * the parts cost, and 2–4 trap tools are overpriced, redundant or off-target; the reference is the
 * cheapest cover of the chain. `--solved-by` keeps the cases every given run solved. Rules:
 * docs/construction.md ("efficiency").
 */
import type { Case } from '../dataset/case.js';
import {
  attachmentsOf,
  baseCaseOf,
  derivedRecord,
  toolJson,
  type ConstructedCase,
} from './case-record.js';
import {
  cheapestCover,
  combineTools,
  distinctWindows,
  TRAP_KINDS,
  type Bank,
  type Trap,
  type TrapKind,
} from './efficiency-bank.js';
import { NameSet, renamedEquivalent } from './names.js';
import { readEfficiencyReply, efficiencyPrompt } from './prompts/efficiency.js';
import { randomFor, type Random } from './random.js';
import type { SourceTool } from './source-record.js';
import { mapInOrder, type Skip, type StepContext, type StepResult } from './step.js';

function trapOf(
  kind: TrapKind,
  parent: Case,
  bank: Pick<Bank, 'costs' | 'composites'>,
  random: Random,
  taken: NameSet,
): Trap | null {
  const chain = parent.reference.toolChain.map((call) => call.name);
  const tools = parent.input.tools;
  const cost = (name: string) => bank.costs.get(name) ?? 1;
  if (kind === 'overpriced') {
    const original = tools.find((tool) => tool.name === random.pick(chain));
    if (!original) return null;
    return {
      kind,
      tool: {
        ...toolJson(original),
        name: renamedEquivalent(original.name, taken),
        cost: cost(original.name) + random.int(2, 4),
      },
    };
  }
  if (kind === 'redundant') {
    const window = random.pick(distinctWindows(parent.reference.toolChain));
    const total = window.names.reduce((sum, name) => sum + cost(name), 0);
    return {
      kind,
      tool: combineTools(window.names, tools, '_and_', total + random.int(1, 3)).tool,
    };
  }
  const others = tools.filter((tool) => !chain.includes(tool.name));
  if (others.length === 0) return null;
  const needed = random.pick(chain);
  return {
    kind,
    tool: combineTools(
      [needed, random.pick(others).name],
      tools,
      '_with_',
      Math.max(1, cost(needed) - 1),
    ).tool,
  };
}

/** The deterministic bank: seeded base costs, composites over seeded windows, seeded traps. */
export function deterministicBank(parent: Case, seed: number): Bank | null {
  const random = randomFor(seed, 'efficiency', parent.id, 'bank');
  const windows = distinctWindows(parent.reference.toolChain);
  if (windows.length < 3) return null;
  const costs = new Map(parent.input.tools.map((tool) => [tool.name, random.int(1, 5)]));
  const taken = new NameSet(parent.input.tools.map((tool) => tool.name));
  const composites = random
    .shuffle(windows)
    .slice(0, random.int(3, Math.min(6, windows.length)))
    .sort((a, b) => a.start - b.start || a.names.length - b.names.length)
    .map((window) =>
      combineTools(
        window.names,
        parent.input.tools,
        '_then_',
        window.names.reduce((sum, name) => sum + (costs.get(name) ?? 1), 0) -
          (window.names.length - 1),
      ),
    );
  for (const composite of composites) taken.add(composite.tool.name);
  const traps: Trap[] = [];
  const kinds = random.shuffle(TRAP_KINDS);
  const wanted = random.int(2, 4);
  for (let attempt = 0; traps.length < wanted && attempt < 8; attempt++) {
    const trap = trapOf(
      kinds[attempt % kinds.length]!,
      parent,
      { costs, composites },
      random,
      taken,
    );
    if (!trap || taken.collides(trap.tool.name)) continue;
    taken.add(trap.tool.name);
    traps.push(trap);
  }
  return traps.length >= 2 ? { costs, composites, traps } : null;
}

/** The listed tools at their base costs, with the bank's composites and traps at seeded positions. */
function costedTools(parent: Case, bank: Bank, seed: number): SourceTool[] {
  const random = randomFor(seed, 'efficiency', parent.id, 'positions');
  const tools: SourceTool[] = parent.input.tools.map((tool) => ({
    ...toolJson(tool),
    cost: bank.costs.get(tool.name) ?? 1,
  }));
  for (const extra of [
    ...bank.composites.map((composite) => composite.tool),
    ...bank.traps.map((trap) => trap.tool),
  ])
    tools.splice(random.int(0, tools.length), 0, extra);
  return tools;
}

/** What the meta line records of a bank: costs, composites, traps and the two totals. */
function bankProvenance(bank: Bank, referenceCost: number, plain: number) {
  return {
    base_costs: Object.fromEntries(bank.costs),
    composites: bank.composites.map((composite) => ({
      name: composite.tool.name,
      merges: composite.parts,
      cost: composite.tool.cost,
    })),
    traps: bank.traps.map((trap) => ({
      name: trap.tool.name,
      kind: trap.kind,
      cost: trap.tool.cost,
    })),
    reference_cost: referenceCost,
    cost_without_composites: plain,
  };
}

function efficiencyCase(
  parent: Case,
  bank: Bank,
  context: StepContext,
  from: { kind: string; model: string | null; promptVersion: string | null; failure?: string },
): ConstructedCase {
  const id = `${parent.id}-efficiency`;
  const tools = costedTools(parent, bank, context.seed);
  const chain = parent.reference.toolChain;
  const cover = cheapestCover(chain, bank.costs, bank.composites);
  const plain = chain.reduce((sum, call) => sum + (bank.costs.get(call.name) ?? 0), 0);
  const plan = cover.nodes
    .map(
      (node, index) =>
        `${index + 1}. ${node.reason.replace(/\s+/g, ' ') || node.name} (${node.name})`,
    )
    .join('\n');
  return {
    split: 'holistic_efficiency',
    record: derivedRecord(parent, {
      id,
      split: 'holistic_efficiency',
      tools_json: JSON.stringify(tools),
      tool_names_json: JSON.stringify(tools.map((tool) => tool.name)),
      plan,
      tool_chain_json: JSON.stringify(cover.nodes),
      extraneous_tool_names_json: '[]',
      base_case_id: baseCaseOf(parent),
      steps: cover.nodes.length,
    }),
    meta: {
      id,
      step: 'efficiency',
      seed: context.seed,
      parent_id: parent.id,
      generated: {
        from: from.kind,
        ...bankProvenance(bank, cover.cost, plain),
        ...(from.failure ? { model_failure: from.failure } : {}),
      },
      model: from.model,
      prompt_version: from.promptVersion,
    },
    attachments: attachmentsOf(parent),
  };
}

async function bankCase(parent: Case, context: StepContext): Promise<ConstructedCase | Skip> {
  const fallback = deterministicBank(parent, context.seed);
  const skip = (reason: string): Skip => ({ step: 'efficiency', parent_id: parent.id, reason });
  if (!context.model)
    return fallback
      ? efficiencyCase(parent, fallback, context, {
          kind: 'deterministic',
          model: null,
          promptVersion: null,
        })
      : skip(
          'the reference chain has fewer than 3 distinct runs of 2–3 steps to merge (B.5 asks for 3–6 composites)',
        );
  const prompt = efficiencyPrompt(parent);
  const reply = await context.model.ask(prompt);
  const read = reply.ok
    ? readEfficiencyReply(reply.value, parent)
    : { ok: false as const, reason: reply.reason };
  if (read.ok)
    return efficiencyCase(parent, read.bank, context, {
      kind: 'model',
      model: context.model.id,
      promptVersion: prompt.promptVersion,
    });
  if (!fallback)
    return skip(
      `model reply unusable (${read.reason}) and the chain is too short for the deterministic bank`,
    );
  return efficiencyCase(parent, fallback, context, {
    kind: 'deterministic',
    model: context.model.id,
    promptVersion: prompt.promptVersion,
    failure: read.reason,
  });
}

/** Efficiency-aware cases of every holistic case. */
export async function constructEfficiency(
  parents: readonly Case[],
  context: StepContext,
): Promise<StepResult> {
  const holistic = parents.filter((parent) => parent.split === 'holistic_planning');
  const made = await mapInOrder(holistic, context, (parent) => bankCase(parent, context));
  return {
    cases: made.filter((item): item is ConstructedCase => 'record' in item),
    skipped: made.filter((item): item is Skip => !('record' in item)),
  };
}

/**
 * `--solved-by RUN...`: keeps the cases every run solved — a case counts as solved by a run when
 * the run judged it, or the case it was made from, correct (the paper kept 106 solved by five models).
 */
export function keepSolvedBy(
  result: StepResult,
  runs: ReadonlyArray<{ run: string; solved: ReadonlySet<string> }>,
): StepResult {
  const cases: ConstructedCase[] = [];
  const skipped = [...result.skipped];
  for (const item of result.cases) {
    const missing = runs.filter(
      ({ solved }) =>
        !solved.has(item.meta.id) &&
        !(item.meta.parent_id !== null && solved.has(item.meta.parent_id)),
    );
    if (missing.length === 0) cases.push(item);
    else
      skipped.push({
        step: 'efficiency',
        parent_id: item.meta.parent_id ?? item.meta.id,
        reason: `not solved by ${missing.map((entry) => entry.run).join(', ')}`,
      });
  }
  return { cases, skipped };
}
