/**
 * Zod schemas of a released-layout record and of the shapes inside its `*_json` string fields.
 * One source of truth: the types below are inferred, never hand-copied.
 */
import { z } from 'zod';
import { SPLITS, PLANNING_REGIMES, UNSOLVABLE_TYPES, STAGES, MODALITIES } from './case.js';

const nullableString = z.string().nullish();

/** A record line of `data/{split}.jsonl`, before its `*_json` fields are decoded. */
export const RecordSchema = z
  .object({
    id: z.union([z.string().min(1), z.number()]),
    split: z.enum(SPLITS),
    planning_regime: z.enum(PLANNING_REGIMES).nullish(),
    task_family: nullableString,
    task_category: nullableString,
    source: nullableString,
    source_subset: nullableString,
    query: z.string(),
    tools_json: z.unknown(),
    tool_names_json: z.unknown().optional(),
    files: z.array(z.unknown()).nullish(),
    prediction_horizon: z.number().nullish(),
    trajectory_prefix_json: z.unknown().optional(),
    plan: nullableString,
    tool_chain_json: z.unknown().optional(),
    unsolvable_type: z.enum(UNSOLVABLE_TYPES).nullish(),
    extraneous_tool_names_json: z.unknown().optional(),
    ground_truth_steps_json: z.unknown().optional(),
    reference_remaining_steps_json: z.unknown().optional(),
    broken_tool_name: nullableString,
    replacement_tool_json: z.unknown().optional(),
    // Optional fields of this project (absent from the release; derived when missing, see facets.ts).
    system_prompt: nullableString,
    stage: z.enum(STAGES).nullish(),
    modality: z.enum(MODALITIES).nullish(),
    base_case_id: nullableString,
    steps: z.number().int().nonnegative().nullish(),
  })
  .loose();
export type RawRecord = z.infer<typeof RecordSchema>;

// A JSON object checked, not rebuilt: a tool's parameter schema is passed on as it is, and
// z.record would copy every key of every schema of every case (a tenth of the validation time).
const jsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  {
    error: 'expected a JSON object',
  },
);

/**
 * The tool-definition shapes found in real data, the commonest first: a union tries its options in
 * order and a failed option costs issue objects, and the released data uses `{name, …}` throughout.
 */
export const ToolDefinitionSchema = z.union(
  [
    z
      .object({
        name: z.string().min(1),
        description: z.string().nullish(),
        parameters: jsonObject.nullish(),
        example: z.unknown().optional(),
        cost: z.number().nonnegative().optional(),
      })
      .loose(),
    z
      .object({
        type: z.literal('function'),
        function: z
          .object({
            name: z.string().min(1),
            description: z.string().nullish(),
            parameters: jsonObject.nullish(),
          })
          .loose(),
        cost: z.number().nonnegative().optional(),
      })
      .loose(),
    z
      .object({
        tool_name: z.string().min(1),
        description: z.string().nullish(),
        parameters: jsonObject.nullish(),
      })
      .loose(),
    z.string().min(1),
  ],
  {
    error:
      'not a tool definition (expected a string, {name, description, parameters} or {type: "function", function: {name, …}})',
  },
);
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

/** A reference tool-chain node `{name, parameter_description, reason}` (and its common spellings). */
export const ChainNodeSchema = z
  .object({
    name: z.string().min(1).optional(),
    tool: z.string().min(1).optional(),
    tool_name: z.string().min(1).optional(),
    parameter_description: z.unknown().optional(),
    arguments: z.unknown().optional(),
    parameters: z.unknown().optional(),
    reason: z.string().nullish(),
  })
  .loose()
  .refine((node) => Boolean(node.name ?? node.tool ?? node.tool_name), {
    message: 'a tool-chain node needs a name',
  });

const functionCallSchema = z
  .object({
    type: z.string().optional(),
    function: z.object({ name: z.string(), arguments: z.unknown().optional() }).loose().optional(),
    name: z.string().optional(),
    arguments: z.unknown().optional(),
  })
  .loose();

/** The trajectory message shapes of the audit §1.4, plus the converted `{step, thought, tool, …}` shape. */
export const TrajectoryEntrySchema = z.union([
  z
    .object({
      role: z.string().min(1),
      content: z.unknown().optional(),
      thought: z.string().nullish(),
      action: z.unknown().optional(),
      tool_calls: z.union([z.array(functionCallSchema), functionCallSchema]).nullish(),
      name: z.string().nullish(),
    })
    .loose(),
  z
    .object({
      step: z.number().optional(),
      thought: z.string().nullish(),
      tool: z.string().nullish(),
      arguments: z.unknown().optional(),
      observation: z.unknown().optional(),
    })
    .loose()
    .refine((entry) => 'tool' in entry || 'observation' in entry || 'thought' in entry, {
      message: 'a trajectory entry needs a role, or a tool / thought / observation',
    }),
]);
export type TrajectoryEntry = z.infer<typeof TrajectoryEntrySchema>;

/** A reference step: a chain node or a trajectory message. */
export const ReferenceStepSchema = z.union([ChainNodeSchema, TrajectoryEntrySchema]);

export const FileEntrySchema = z.union(
  [z.string().min(1), z.object({ path: z.string().min(1), type: z.string().nullish() }).loose()],
  {
    error: 'not a file entry (expected a relative path or {path, type})',
  },
);

/** Decoders for each `*_json` field: the field name and the schema of its decoded value. */
export const JSON_FIELDS = {
  tools_json: z.array(ToolDefinitionSchema),
  tool_names_json: z.array(z.string()),
  trajectory_prefix_json: z.array(TrajectoryEntrySchema),
  tool_chain_json: z.array(ChainNodeSchema),
  extraneous_tool_names_json: z.array(z.string()),
  ground_truth_steps_json: z.array(ReferenceStepSchema),
  reference_remaining_steps_json: z.array(ReferenceStepSchema),
  replacement_tool_json: ToolDefinitionSchema.nullable(),
} as const;
export type JsonFieldName = keyof typeof JSON_FIELDS;
