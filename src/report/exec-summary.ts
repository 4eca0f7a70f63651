/**
 * The end-of-run summary of `apb exec` (the shared `EndOfRunSummary`, filled from `exec-scores.json`): per
 * (environment, model) the mean reward per mode with its n, the plans' APB CR and grade before and after
 * refinement, pass^k with several trials, terminations, outcomes and top failure reasons, tokens and cost by role
 * (agent, user, planner, critic, judge), cache hits, and the retries and 429s of this invocation. Pure.
 */
import { structuralJudgeNote, type ExecScores } from '../execution/exec-scores.js';
import type { Table3Row } from '../metrics/executable.js';
import { floorNote, playersNote, pooledNote, PLANNER_CONTEXT_NOTE } from './exec-notes.js';
import type { ExecModeNumber, EndOfRunSummary, SummaryOptions } from './run-summary.js';
import type { RoleUsage } from './usage.js';

/** What the command knows beyond the scores: the run's identity, status, and this invocation's retries and 429s. */
export interface ExecSummaryOptions extends SummaryOptions {
  dir: string;
  env: string;
  model: string;
  judge: string;
  status: string;
  retries: number;
  /** 429s the endpoints answered (null when no endpoint was called). */
  rateLimited: number | null;
}

/** Roles in the order a reader expects them; any other role follows. */
const ROLE_ORDER = ['agent', 'user', 'planner', 'critic', 'judge'];
const COLUMNS = ['direct', 'plan_first', 'refine'] as const;

function rolesOf(scores: ExecScores): RoleUsage[] {
  const rank = (role: string) =>
    ROLE_ORDER.includes(role) ? ROLE_ORDER.indexOf(role) : ROLE_ORDER.length;
  return Object.entries(scores.usage)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([role, totals]) => ({
      role,
      calls: totals.calls,
      cached_calls: totals.cached_calls,
      input_tokens: totals.input_tokens,
      output_tokens: totals.output_tokens,
      cost_usd: totals.cost_usd,
    }));
}

/** The mode figures of one Table 3 row, as the summary prints them. */
function modesOf(row: Table3Row | undefined): ExecModeNumber[] {
  return COLUMNS.flatMap((column) => {
    const figures = row?.detail.modes[column];
    if (!figures) return [];
    return [
      {
        mode: column,
        reward: figures.reward,
        n: figures.runs,
        unevaluated: figures.unevaluated,
        infrastructure_errors: figures.infrastructure_errors,
        reward_if_nl_met: figures.reward_if_nl_met,
        pass_hat_k: row!.trials > 1 ? figures.pass_hat_k : null,
      },
    ];
  });
}

/** The exec block of the summary: Table 3's row of (env, model), terminations and outcomes. */
function execBlock(scores: ExecScores, env: string, row: Table3Row | undefined) {
  return {
    env,
    tasks: row?.n ?? 0,
    trials: row?.trials ?? 0,
    modes: modesOf(row),
    apb: {
      cr_before: row?.apb_cr_before ?? null,
      cr_after: row?.apb_cr_after ?? null,
      grade_before: row?.apb_grade_before ?? null,
      grade_after: row?.apb_grade_after ?? null,
      plans_before: row?.detail.plans_before ?? 0,
      plans_after: row?.detail.plans_after ?? 0,
    },
    terminations: scores.terminations,
    outcomes: scores.outcomes,
  };
}

/** The summary of one exec run directory (or of a pooled run: `env` is then `tau2`). */
export function buildExecSummary(scores: ExecScores, options: ExecSummaryOptions): EndOfRunSummary {
  const row = scores.tables.table3.find(
    (entry) => entry.env === options.env && entry.model === options.model && !entry.floor,
  );
  const usage = rolesOf(scores);
  const cost = usage.some((role) => role.calls > 0 && role.cost_usd === null)
    ? null
    : usage.reduce((sum, role) => sum + (role.cost_usd ?? 0), 0);
  return {
    command: options.command,
    status: options.status,
    wall_ms: options.wallMs,
    entries: [
      {
        model: options.model,
        judge: options.judge,
        dirs: [options.dir],
        headline: [],
        outcomes: null,
        exec: execBlock(scores, options.env, row),
        top_failures: scores.failure_reasons,
        usage,
        cost_usd: cost,
        cost_per_correct_usd: null,
        cache_hits: usage.reduce((sum, role) => sum + role.cached_calls, 0),
        retries: options.retries,
        rate_limited: options.rateLimited,
      },
    ],
    report_html: options.reportHtml,
    report_md: options.reportMd,
    view_command: options.viewCommand,
    notes: [...setupNotes(scores, options.env), ...notesOf(scores)],
  };
}

/** Who played and judged, the planner's context, the floor and the pooling: the setup behind the numbers. */
function setupNotes(scores: ExecScores, env: string): string[] {
  return [
    playersNote(scores),
    PLANNER_CONTEXT_NOTE,
    floorNote(scores, env),
    env === 'tau2' ? pooledNote(scores) : null,
  ].filter((note): note is string => note !== null);
}

/** What a reader must know to read the numbers: runs left out of the means, and how to get them counted. */
function notesOf(scores: ExecScores): string[] {
  const { unevaluated, infrastructure_errors: infrastructure } = scores.outcomes;
  const notes: string[] = [];
  const structural = structuralJudgeNote(scores);
  if (structural) notes.push(structural);
  if (unevaluated > 0)
    notes.push(
      `${unevaluated} execution(s) have NL assertions that were not judged and are left out of the means ("≤" is the mean if they hold); give --judge PROVIDER:MODEL to judge them`,
    );
  if (infrastructure > 0)
    notes.push(
      `${infrastructure} execution(s) ended on an infrastructure error (a model call failed after its retries) and are left out; rerun with --retry-errors to run them again`,
    );
  return notes;
}
