/**
 * data/paper-tables.json as this project reads it: the zod schema of the part used, model-name
 * matching through the paper's aliases, and the paper's own known inconsistencies by cell.
 */
import { z } from 'zod';

const PaperTableSchema = z
  .object({
    columns: z.array(z.string()),
    decimals: z.record(z.string(), z.union([z.number(), z.array(z.number())])).nullish(),
    rows: z.array(z.record(z.string(), z.unknown())),
  })
  .loose();

/** The part of data/paper-tables.json this module reads. */
export const PaperTablesSchema = z
  .object({
    source: z.string().optional(),
    model_aliases: z.record(z.string(), z.string()),
    models: z
      .object({
        list: z.array(
          z
            .object({
              name: z.string(),
              api_model_id: z.string().nullish(),
              url: z.string().nullish(),
            })
            .loose(),
        ),
      })
      .loose(),
    known_paper_inconsistencies: z.array(
      z
        .object({
          id: z.string(),
          tables: z.array(z.number()),
          description: z.string(),
          cells: z.array(z.string()),
        })
        .loose(),
    ),
    splits: z.record(z.string(), z.unknown()).optional(),
    tables: z.record(z.string(), PaperTableSchema),
  })
  .loose();
export type PaperTables = z.infer<typeof PaperTablesSchema>;

/** Lower-case letters and digits only: "Qwen3VL-32B-In." and "qwen3-vl-32b" meet as "qwen3vl32b". */
export function normalizeModelName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The paper's canonical model name for one of our model specs (`provider:model`), or null. */
export function matchPaperModel(spec: string, paper: PaperTables): string | null {
  const names = new Map<string, string>();
  for (const [alias, canonical] of Object.entries(paper.model_aliases))
    names.set(normalizeModelName(alias), canonical);
  for (const model of paper.models.list) {
    names.set(normalizeModelName(model.name), paper.model_aliases[model.name] ?? model.name);
    if (model.api_model_id)
      names.set(
        normalizeModelName(model.api_model_id),
        paper.model_aliases[model.name] ?? model.name,
      );
    const repository = model.url?.match(/huggingface\.co\/[^/]+\/([^/?#]+)/)?.[1];
    if (repository)
      names.set(normalizeModelName(repository), paper.model_aliases[model.name] ?? model.name);
  }
  const bare = spec.includes(':') ? spec.slice(spec.indexOf(':') + 1) : spec;
  const candidates = [
    bare,
    bare.split('/').pop() ?? bare,
    bare.replace(/-\d{8}$/, ''),
    bare.replace(/-(preview|latest)$/i, ''),
  ];
  for (const candidate of candidates) {
    const found = names.get(normalizeModelName(candidate));
    if (found) return found;
  }
  return null;
}

/** Columns a model-level inconsistency entry covers, by id (entries naming `Model/column` cover that cell only). */
const INCONSISTENCY_COLUMNS: Record<string, string[]> = {
  table1_extraneous_E2H_E2S_swapped: ['extraneous_E2-H', 'extraneous_E2-S'],
  table1_extraneous_E3_E6_shifted: [
    'extraneous_E3',
    'extraneous_E4',
    'extraneous_E5',
    'extraneous_E6',
  ],
};

/** The id of the known paper inconsistency touching a Table 1/2 cell of a model, or null. */
export function inconsistencyOf(
  paper: PaperTables,
  table: number,
  model: string,
  column: string,
): string | null {
  for (const entry of paper.known_paper_inconsistencies) {
    if (!entry.tables.includes(table)) continue;
    if (entry.cells.includes(`${model}/${column}`)) return entry.id;
    if (entry.cells.includes(model) && INCONSISTENCY_COLUMNS[entry.id]?.includes(column))
      return entry.id;
  }
  return null;
}
