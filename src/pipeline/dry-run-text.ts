/**
 * The dry runs' text: counts and dollars as printed, aligned plain-text tables, and `apb run
 * --dry-run`'s table with its assumptions (the estimate itself is dry-run.ts's).
 */
import { formatBytes } from '../limits.js';
import type { DryRunEstimate } from './dry-run.js';

/** A count as printed by the dry runs (thousands separated). */
export const number = (value: number) => value.toLocaleString('en-US');
/** A dollar amount as printed by the dry runs; `unknown` without a price. */
export const usd = (value: number | null) =>
  value === null ? 'unknown' : value < 1 ? value.toFixed(4) : value.toFixed(2);

/** Rows of cells (the last one a total) as aligned plain-text columns with a rule above the total. */
export function textTable(header: string[], cells: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]!.length)),
  );
  const render = (line: string[]) =>
    line
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join('  ');
  return [
    render(header),
    ...cells.slice(0, -1).map(render),
    render(widths.map((width) => '-'.repeat(width))),
    render(cells.at(-1)!),
  ];
}

/** Each model's price and assumed output, and the largest image. */
function modelLines(estimate: DryRunEstimate): string[] {
  const lines: string[] = [];
  for (const model of estimate.models) {
    const price = model.price
      ? `${model.price.input} / ${model.price.output} USD per million input / output tokens${model.batch ? ' (batch price)' : ''}`
      : `no ${model.batch ? 'batch ' : ''}price in data/prices.json (cost unknown)`;
    lines.push(
      `${model.role} ${model.spec}: ${price}; output assumed ${number(model.outputTokens)} tokens per call`,
    );
  }
  const { images } = estimate;
  if (images.largest) {
    const { largest } = images;
    const pixels =
      largest.width && largest.height
        ? `${largest.width}×${largest.height} px, about ${number(largest.tokens)} tokens`
        : `size unreadable, counted ${number(largest.tokens)} tokens`;
    lines.push(
      `images: ${number(images.count)} distinct, ${formatBytes(images.bytes)} in all; the largest ${largest.path} (${formatBytes(largest.bytes)}, ${pixels})`,
    );
  }
  return lines;
}

/** What `--max-cost` would do to the run. */
function budgetLine(estimate: DryRunEstimate, maxCostUsd: number): string {
  const cost = estimate.total.costUsd;
  return cost === null
    ? `--max-cost ${maxCostUsd}: the run would be refused (a model has no price)`
    : cost > maxCostUsd
      ? `--max-cost ${maxCostUsd}: the run would stop early (about ${Math.floor((100 * maxCostUsd) / cost)}% of the estimate)`
      : `--max-cost ${maxCostUsd}: the estimate fits`;
}

/** The dry run as a plain-text table and its assumptions (what `apb run --dry-run` prints). */
export function formatDryRun(
  estimate: DryRunEstimate,
  options: { maxCostUsd?: number; repeats: number },
): string {
  const header = [
    'split',
    'cases',
    'planner calls',
    'judge calls',
    'input tokens',
    'output tokens',
    'cost (USD)',
  ];
  const cells = [...estimate.rows, estimate.total].map((row) => [
    row.split,
    number(row.cases),
    number(row.plannerCalls),
    number(row.judgeCalls),
    number(row.inputTokens),
    number(row.outputTokens),
    usd(row.costUsd),
  ]);
  const lines = textTable(header, cells);
  lines.push('');
  if (options.repeats > 1) lines.push(`each case counted ${options.repeats} times (--repeats)`);
  if (estimate.models.length === 0)
    lines.push('no model is called: the planner is a baseline and the judge is rules (cost 0)');
  lines.push(...modelLines(estimate));
  lines.push(
    `estimates only: input tokens counted with gpt-tokenizer (o200k) on the real prompts, images by their pixel size (the most of OpenAI's, Anthropic's and Gemini's formulas; 1,280 when unreadable); judge prompts built around the planner prompt and reference; no cache hits; prices as of ${estimate.pricesAsOf}`,
  );
  if (options.maxCostUsd !== undefined) lines.push(budgetLine(estimate, options.maxCostUsd));
  if (estimate.invalidRecords > 0)
    lines.push(`${estimate.invalidRecords} invalid record(s) skipped`);
  return `${lines.join('\n')}\n`;
}
