/**
 * The edges of `apb construct`: what steps need from outside construction (environments, judged
 * runs), the pipeline config file (JSON or YAML, FILE:LINE: field: message), and summary lines.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import {
  PipelineConfigSchema,
  runPipeline,
  stepIds,
  type PipelineConfig,
} from '../construction/pipeline.js';
import type { StepDeps, StepSummary } from '../construction/run-step.js';
import { resolveDatasetDir } from '../dataset/read-cases.js';
import { InputError, UsageError } from '../errors.js';
import { ENVIRONMENTS, loadEnvironment } from '../execution/registry.js';
import { readResultRows } from '../pipeline/result-rows.js';
import { fieldName, lineOf } from './config-file.js';
import { configValuesOf, readConfigText } from './config-text.js';
import {
  createConstructModels,
  formatConstructDryRun,
  progress,
  withBudgetHint,
  type ConstructEngineOptions,
  type ConstructModels,
} from './construct-engine.js';
import type { CommandOutcome } from './outcome.js';
import { say } from './terminal.js';

/** Ids of the cases a run solved: every judged repeat of the case correct. */
async function solvedBy(runDir: string): Promise<ReadonlySet<string>> {
  const file = path.join(runDir, 'judgements.jsonl');
  if (!existsSync(file))
    throw new UsageError(
      `--solved-by ${runDir}: no judgements.jsonl (give a run directory written by apb run or apb judge)`,
    );
  const { rows, issues } = await readResultRows(file);
  if (issues.length > 0) throw new InputError(issues);
  const verdicts = new Map<string, boolean>();
  for (const row of rows) verdicts.set(row.id, (verdicts.get(row.id) ?? true) && row.correct);
  return new Set([...verdicts].filter(([, solved]) => solved).map(([id]) => id));
}

/** The outside world a step may need. */
export function constructDeps(): StepDeps {
  return {
    environment(id) {
      if (!Object.hasOwn(ENVIRONMENTS, id))
        throw new UsageError(
          `construct import --from tau2: no environment ${id} in this build (known: ${Object.keys(ENVIRONMENTS).join(', ')})`,
        );
      return loadEnvironment(id);
    },
    solvedBy,
  };
}

/** One line on what a step wrote. */
export function describeSummary(
  summary: StepSummary,
  out: string,
  models: ConstructModels,
): string {
  const parts = Object.entries(summary.cases).map(([split, count]) => `${count} ${split}`);
  if (summary.sources !== null) parts.push(`${summary.sources} source record(s)`);
  if (summary.rejected !== null)
    parts.push(`${summary.rejected} rejected (rejected.jsonl), review queue in review.jsonl`);
  if (summary.skipped > 0) parts.push(`${summary.skipped} skipped (meta/skipped.jsonl)`);
  if (summary.review)
    parts.push(
      `review: ${summary.review.accepted} accepted, ${summary.review.edited} edited, ${summary.review.rejected} rejected, ${summary.review.pending} not reviewed; ${summary.review.why}`,
    );
  const usage = models
    .usage()
    .map(
      ({ spec, usage: used }) =>
        `${spec}: ${used.calls} call(s) (${used.cached} cached, ${used.failed} unusable), ${used.inputTokens} in / ${used.outputTokens} out tokens`,
    );
  const rejected = summary.rejections.slice(0, 20).map((line) => `apb:   rejected ${line}`);
  if (summary.rejections.length > 20)
    rejected.push(`apb:   … and ${summary.rejections.length - 20} more in rejected.jsonl`);
  return [
    `apb: construct ${summary.step}: ${parts.join(', ') || 'nothing made'}; written to ${out}`,
    ...rejected,
    ...usage.map((line) => `apb:   ${line}`),
  ].join('\n');
}

/** Reads and validates a pipeline config; every problem as FILE:LINE: field: message. */
export function readPipelineConfig(file: string): { config: PipelineConfig; baseDir: string } {
  const text = readConfigText(file);
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0)
    throw new InputError(
      doc.errors.map((error) => ({
        file,
        line: error.linePos?.[0]?.line ?? 1,
        field: '(file)',
        message: `not valid JSON or YAML: ${error.message.split('\n')[0]}`,
      })),
    );
  const parsed = PipelineConfigSchema.safeParse(configValuesOf(doc, file));
  if (!parsed.success)
    throw new InputError(
      parsed.error.issues.map((issue) => ({
        file,
        line: lineOf(doc, counter, issue.path),
        field: fieldName(issue.path),
        message:
          issue.code === 'unrecognized_keys'
            ? `unknown key(s) ${issue.keys.join(', ')}`
            : issue.message,
      })),
    );
  return { config: parsed.data, baseDir: path.dirname(path.resolve(file)) };
}

/** Runs a pipeline config (or its dry run) with the command's overrides. */
export async function runPipelineCommand(
  read: { config: PipelineConfig; baseDir: string },
  options: Record<string, unknown>,
  engine: ConstructEngineOptions,
  outcome: CommandOutcome,
): Promise<void> {
  const config: PipelineConfig = {
    ...read.config,
    ...(options.seed !== undefined ? { seed: options.seed as number } : {}),
    ...(options.llm ? { llm: options.llm as string } : {}),
  };
  const outOption =
    (options.out as string | undefined) ??
    (config.out ? path.resolve(read.baseDir, config.out) : undefined);
  if (!outOption)
    throw new UsageError(
      'construct pipeline needs an output directory: --out DIR or "out" in the config',
    );
  const baseUrl = (options.llmBaseUrl as string | undefined) ?? config.llm_base_url;
  const models = createConstructModels({ ...engine, ...(baseUrl ? { llmBaseUrl: baseUrl } : {}) });
  const out = engine.dryRun
    ? mkdtempSync(path.join(tmpdir(), 'apb-construct-dry-'))
    : path.resolve(outOption);
  try {
    const summaries = await runPipeline(
      {
        config,
        out,
        baseDir: read.baseDir,
        modelFor: (spec) => models.modelFor(spec),
        keyword: (name) => (name === 'sample' ? resolveDatasetDir('sample') : undefined),
        onItem: (step, done, total) => progress(step, !engine.dryRun)?.(done, total),
        onStep: (summary, index) =>
          engine.dryRun ||
          say(
            describeSummary(summary, path.join(outOption, 'steps', stepIds(config.steps)[index]!), {
              ...models,
              usage: () => [],
            }),
          ),
      },
      constructDeps(),
    );
    if (engine.dryRun) process.stdout.write(formatConstructDryRun(models.dryRun()));
    else {
      const totals = new Map<string, number>();
      for (const summary of summaries)
        for (const [split, count] of Object.entries(summary.cases))
          totals.set(split, (totals.get(split) ?? 0) + (count ?? 0));
      say(
        `apb: construct pipeline: ${[...totals].map(([split, count]) => `${count} ${split}`).join(', ')}; dataset in ${outOption} (check it with apb data validate ${outOption})`,
      );
      for (const { spec, usage } of models.usage())
        say(
          `apb:   ${spec}: ${usage.calls} call(s) (${usage.cached} cached, ${usage.failed} unusable), ${usage.inputTokens} in / ${usage.outputTokens} out tokens`,
        );
    }
    outcome.exitCode = 0;
  } catch (error) {
    throw withBudgetHint(error);
  } finally {
    models.close();
    if (engine.dryRun) rmSync(out, { recursive: true, force: true });
  }
}
