/** `apb agreement RUN_DIR --human FILE [--format md|json]`: the run's judges vs human labels (paper Tables 7–9). */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { calibrationSummary } from '../../judge/calibration.js';
import { parseHumanLabels } from '../../judge/human-labels.js';
import { calibrationRows } from '../../pipeline/judge-sections.js';
import { readJudgementLines } from '../../pipeline/outputs.js';
import { calibrationViews } from '../../report/judge-views.js';
import { sectionMarkdown } from '../../report/markdown.js';
import type { CommandOutcome } from '../outcome.js';
import { choice } from '../options.js';
import { say } from '../terminal.js';

export function registerAgreementCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  program
    .command('agreement')
    .description(
      "compare the run's judges (each panel member and the panel) with human labels: paper Tables 7-9",
    )
    .argument(
      '<run-dir>',
      "a run directory holding judgements.jsonl (ours or the official harness's)",
    )
    .requiredOption(
      '--human <file>',
      'human labels, JSONL: id, tested_model, is_correct, grade, error_list[, correct_but_different]',
    )
    .option('--format <format>', 'md or json', choice(['md', 'json'] as const), 'md')
    .action(async (runDir: string, options: { human: string; format: string }) => {
      if (!existsSync(path.join(runDir, 'judgements.jsonl')))
        throw new UsageError(`${runDir} has no judgements.jsonl`);
      if (!existsSync(options.human))
        throw new UsageError(`human label file not found: ${options.human}`);
      const labels = parseHumanLabels(readFileSync(options.human, 'utf8'), options.human, limits);
      const lines = await readJudgementLines(runDir, limits);
      const summary = calibrationSummary(calibrationRows(lines), labels);
      process.stdout.write(
        options.format === 'json'
          ? `${JSON.stringify(summary, null, 2)}\n`
          : `${calibrationViews(summary)
              .map((view, index) => sectionMarkdown(view, index === 0 ? 1 : 2))
              .join('\n\n')}\n`,
      );
      if (summary.unmatchedLabels > 0)
        say(
          `apb: ${summary.unmatchedLabels} of ${summary.labels} label(s) match no judged answer (id, tested_model)`,
        );
      outcome.exitCode = 0;
    });
}
