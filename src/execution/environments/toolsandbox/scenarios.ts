/**
 * ToolSandbox's scenarios as data (`data/toolsandbox/scenarios.json`, converted once from
 * ToolSandbox's Python by `scripts/toolsandbox/export_scenarios.py`): 129 base scenarios, each
 * in 8 variants, with their starting databases, tool lists and evaluation.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import type { ScenarioEvaluation } from './evaluation.js';
import { ExecutionContext } from './execution-context.js';
import type { Row } from './frame.js';
import { NAMESPACES, type Namespace } from './schemas.js';
import { shiftRow } from './clock.js';

/** The variant suffixes of a base scenario, in ToolSandbox's order (the base has none). */
export const VARIANTS = [
  'base',
  '3_distraction_tools',
  '10_distraction_tools',
  'all_tools',
  '3_distraction_tools_tool_description_scrambled',
  '3_distraction_tools_arg_type_scrambled',
  '3_distraction_tools_arg_description_scrambled',
  '3_distraction_tools_tool_name_scrambled',
] as const;
export type Variant = (typeof VARIANTS)[number];

/** One of the 1,032 scenarios. */
export interface Scenario {
  name: string;
  base: string;
  variant: Variant;
  categories: string[];
  maxMessages: number;
  /** Tools the agent (and the user: `end_conversation`) may call, in ToolSandbox's shuffled order. */
  toolAllowList: string[] | null;
  toolDenyList: string[] | null;
  toolAugmentations: string[];
  /** Needs a RapidAPI tool, which cannot be reached here. */
  requiresNetwork: boolean;
  evaluation: ScenarioEvaluation;
  /** The starting world, message log included (system prompt, few-shot examples, first user turn). */
  startingContext(): ExecutionContext;
}

const Cell = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);
const RowSchema = z.record(z.string(), Cell);
const ScenarioSchema = z.object({
  name: z.string(),
  base: z.string(),
  categories: z.array(z.string()),
  max_messages: z.number().int(),
  tool_allow_list: z.array(z.string()).nullable(),
  tool_deny_list: z.array(z.string()).nullable(),
  tool_augmentation_list: z.array(z.string()),
  trace_tool: z.boolean(),
  requires_network: z.boolean(),
  databases: z.number().int(),
  evaluation: z.object({
    milestones: z.array(z.unknown()),
    milestone_edges: z.array(z.tuple([z.number(), z.number()])),
    minefields: z.array(z.unknown()),
    minefield_edges: z.array(z.tuple([z.number(), z.number()])),
  }),
});
const FileSchema = z.object({
  source: z.string(),
  clock: z.string(),
  seed: z.number(),
  databases: z.array(z.record(z.enum(NAMESPACES), z.array(RowSchema))),
  scenarios: z.array(ScenarioSchema),
});

/** The scenario file shipped in data/. */
export function scenariosFile(): string {
  return fileURLToPath(new URL('../../../../data/toolsandbox/scenarios.json', import.meta.url));
}

function variantOf(name: string, base: string): Variant {
  if (name === base) return 'base';
  const suffix = name.slice(base.length + 1);
  const variant = VARIANTS.find((v) => v === suffix);
  if (!variant) throw new Error(`${name}: not a variant of ${base}`);
  return variant;
}

/**
 * Loads and checks the scenario file; a bad field is an InputError naming it. `shift` (seconds)
 * moves the starting databases' timestamps, for a clock other than the file's (clock.ts).
 */
export function loadScenarios(
  file = scenariosFile(),
  shift = 0,
): { clock: string; scenarios: Scenario[] } {
  const parsed = FileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new InputError(
      parsed.error.issues.slice(0, 5).map((issue) => ({
        file,
        line: 1,
        field: issue.path.map(String).join('.'),
        message: issue.message,
      })),
    );
  const { databases, scenarios } = parsed.data;
  const out = scenarios.map((s): Scenario => {
    const dbs = databases[s.databases];
    if (!dbs) throw new Error(`${file}: ${s.name}: no database set ${s.databases}`);
    return {
      name: s.name,
      base: s.base,
      variant: variantOf(s.name, s.base),
      categories: s.categories,
      maxMessages: s.max_messages,
      toolAllowList: s.tool_allow_list,
      toolDenyList: s.tool_deny_list,
      toolAugmentations: s.tool_augmentation_list,
      requiresNetwork: s.requires_network,
      evaluation: s.evaluation as unknown as ScenarioEvaluation,
      startingContext: () => contextOf(dbs as Record<Namespace, Row[]>, shift),
    };
  });
  return { clock: parsed.data.clock, scenarios: out };
}

function contextOf(dbs: Record<Namespace, Row[]>, shift: number): ExecutionContext {
  return new ExecutionContext(
    Object.fromEntries(
      NAMESPACES.map((ns) => [ns, dbs[ns].map((row) => shiftRow(row, shift))]),
    ) as Record<Namespace, Row[]>,
  );
}
