/**
 * The edges of `apb construct` in the CLI: the pipeline config file (JSON or YAML, FILE:LINE:
 * field: message), the progress and summary lines; the run itself is `constructPipeline`
 * (src/engine/construct.ts).
 */
import type { Limits } from '../limits.js';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { ModelUsage } from '../construction/model.js';
import { PipelineConfigSchema, stepIds, type PipelineConfig } from '../construction/pipeline.js';
import type { StepSummary } from '../construction/run-step.js';
import { resolveDatasetDir } from '../dataset/read-cases.js';
import { InputError, UsageError } from '../errors.js';
import { constructPipeline } from '../engine/construct.js';
import { formatConstructDryRun, type ConstructEngineOptions } from '../engine/construct-models.js';
import { fieldName, lineOf } from './config-file.js';
import { configValuesOf, readConfigText } from './config-text.js';
import type { CommandOutcome } from './outcome.js';
import { say } from './terminal.js';

/** A progress line every tenth of the items, for steps that call a model. */
export function progressLine(step: string): (done: number, total: number) => void {
  return (done, total) => {
    if (done === total || done % Math.max(1, Math.floor(total / 10)) === 0)
      say(`apb: construct ${step}: ${done}/${total}`);
  };
}

/** One line on what a step wrote. */
export function describeSummary(
  summary: StepSummary,
  out: string,
  models: ReadonlyArray<{ spec: string; usage: ModelUsage }>,
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
  const usage = models.map(
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
  limits?: Limits,
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
  const result = await constructPipeline({
    config,
    out: outOption,
    baseDir: read.baseDir,
    engine,
    ...(limits ? { limits } : {}),
    ...(baseUrl ? { llmBaseUrl: baseUrl } : {}),
    keyword: (name) => (name === 'sample' ? resolveDatasetDir('sample') : undefined),
    onItem: (step, done, total) => progressLine(step)(done, total),
    onStep: (summary, index) =>
      say(
        describeSummary(summary, path.join(outOption, 'steps', stepIds(config.steps)[index]!), []),
      ),
  });
  if (result.dryRun) process.stdout.write(formatConstructDryRun(result.dryRun));
  else {
    const totals = new Map<string, number>();
    for (const summary of result.summary)
      for (const [split, count] of Object.entries(summary.cases))
        totals.set(split, (totals.get(split) ?? 0) + (count ?? 0));
    say(
      `apb: construct pipeline: ${[...totals].map(([split, count]) => `${count} ${split}`).join(', ')}; dataset in ${outOption} (check it with apb data validate ${outOption})`,
    );
    for (const { spec, usage } of result.usage)
      say(
        `apb:   ${spec}: ${usage.calls} call(s) (${usage.cached} cached, ${usage.failed} unusable), ${usage.inputTokens} in / ${usage.outputTokens} out tokens`,
      );
  }
  outcome.exitCode = 0;
}
