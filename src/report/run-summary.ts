/**
 * The end-of-run summary as data: per (model, judge) the headline numbers with n, the outcome
 * counts and the top failure reasons, tokens and cost by role, cache hits, retries and 429s; the
 * wall time; where the report is and the command that opens it. Built from the `ReportData` the
 * run's report was rendered from (so the two always agree); `apb run --json` prints it, the CLI
 * renders it as text, and other commands that write run directories (refine, exec) can build one
 * the same way or fill `headline` with their own numbers; `apb exec` fills `exec` instead
 * (report/exec-summary.ts). Pure.
 */
import type { ExecOutcomes } from '../execution/exec-outcomes.js';
import type { ReportData } from './report-data.js';
import type { HeadlineCell } from './scorecard.js';
import type { RoleUsage } from './usage.js';

/** One headline number of a summary (the scorecard's, or a command's own: label, percent, interval, n). */
export type SummaryNumber = Pick<HeadlineCell, 'label' | 'value' | 'ci' | 'n'>;

/** The outcomes of judged planning answers (`apb run`, `apb refine`). */
export interface PlanningOutcomes {
  judgements: number;
  ok: number;
  error: number;
  parse_error: number;
  judge_error: number;
  correct: number;
}

/** One execution mode's Table 3 cell and what it averages (`apb exec`). */
export interface ExecModeNumber {
  /** Table 3's column: `direct`, `plan_first`, `refine`. */
  mode: string;
  /** Mean reward over the `n` rewarded runs (null when none). */
  reward: number | null;
  n: number;
  /** Runs left out: NL assertions not judged, and infrastructure errors. */
  unevaluated: number;
  infrastructure_errors: number;
  /** With unjudged NL assertions: the mean if they all held (an upper bound). */
  reward_if_nl_met: number | null;
  /** pass^k for k = 1..K when the run has several trials, else null. */
  pass_hat_k: Record<string, number> | null;
}

/** An `apb exec` entry's figures: Table 3's row with its n, the plans' APB judgements, terminations and outcomes. */
export interface ExecSummaryFigures {
  env: string;
  tasks: number;
  trials: number;
  modes: ExecModeNumber[];
  /** APB CR (percent) and mean grade of the draft plans (before) and the refined ones (after), over `plans_*` plans. */
  apb: {
    cr_before: number | null;
    cr_after: number | null;
    grade_before: number | null;
    grade_after: number | null;
    plans_before: number;
    plans_after: number;
  };
  terminations: Record<string, number>;
  outcomes: ExecOutcomes;
}

/** One (model, judge) of a summary. */
export interface SummaryEntry {
  model: string;
  judge: string;
  /** Run directories holding it. */
  dirs: string[];
  /** Headline numbers of the splits it has (n > 0). */
  headline: SummaryNumber[];
  /** null for an `apb exec` entry, whose outcomes are executions (`exec.outcomes`). */
  outcomes: PlanningOutcomes | null;
  /** `apb exec` only: the executions' figures. */
  exec?: ExecSummaryFigures;
  /** The most frequent failure reasons (at most five), with one example message each. */
  top_failures: { reason: string; count: number; example: string }[];
  usage: RoleUsage[];
  cost_usd: number | null;
  cost_per_correct_usd: number | null;
  cache_hits: number;
  retries: number;
  rate_limited: number | null;
}

/** The whole summary of one command. */
export interface EndOfRunSummary {
  /** The command that ran (`run`, `refine`, `exec`, …). */
  command: string;
  /** `complete`, or the worst status of its runs (`interrupted`, `stopped-budget`, `failed`, `running`). */
  status: string;
  wall_ms: number;
  entries: SummaryEntry[];
  /** The HTML report to read (a run's report.html, or the leaderboard), and the command that serves it live. */
  report_html: string | null;
  report_md: string | null;
  view_command: string | null;
  /** The report's caveats (structural judge, baselines, data that differ, …). */
  notes: string[];
}

const STATUS_ORDER = ['failed', 'interrupted', 'stopped-budget', 'running', 'complete'];

/** The worst of the runs' statuses (unknown ones rank as `complete`). */
export function overallStatus(statuses: readonly (string | null)[]): string {
  const rank = (status: string | null) =>
    status && STATUS_ORDER.includes(status)
      ? STATUS_ORDER.indexOf(status)
      : STATUS_ORDER.length - 1;
  return statuses.reduce<string>(
    (worst, status) => (rank(status) < rank(worst) ? status! : worst),
    'complete',
  );
}

/** Options of `buildRunSummary`: what the command knows and the report data does not. */
export interface SummaryOptions {
  command: string;
  wallMs: number;
  reportHtml: string | null;
  reportMd: string | null;
  viewCommand: string | null;
}

/** The summary of a command from the report data of the run directories it wrote. */
export function buildRunSummary(data: ReportData, options: SummaryOptions): EndOfRunSummary {
  const entries = data.groups.map((group, index): SummaryEntry => {
    const card = data.scorecard.find(
      (row) => row.model === group.model && row.judge === group.judge,
    );
    const usage = data.usage.rows[index]!;
    return {
      model: group.model,
      judge: group.judge,
      dirs: group.runs,
      headline: (card?.cells ?? [])
        .filter((cell) => cell.n > 0)
        .map(({ label, value, ci, n }) => ({ label, value, ci, n })),
      outcomes: {
        judgements: group.n,
        ok: group.ok,
        error: group.errors,
        parse_error: group.parse_errors,
        judge_error: group.judge_errors,
        correct: group.correct,
      },
      top_failures: group.failure_reasons.slice(0, 5),
      usage: usage.roles,
      cost_usd: usage.cost_usd,
      cost_per_correct_usd: usage.cost_per_correct_usd,
      cache_hits: usage.cache_hits,
      retries: usage.retries,
      rate_limited: usage.rate_limited,
    };
  });
  return {
    command: options.command,
    status: overallStatus(data.runs.map((run) => run.status)),
    wall_ms: options.wallMs,
    entries,
    report_html: options.reportHtml,
    report_md: options.reportMd,
    view_command: options.viewCommand,
    notes: data.notes,
  };
}
