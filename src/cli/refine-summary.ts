/**
 * The end-of-run summary of `apb refine`, as the shared summary object (report/run-summary.ts) with
 * refinement's own headline numbers: base and refined correctness per method and regime (Table 4),
 * outcomes and failure reasons from the refined lines, usage per role (planner = revisions, critic,
 * judge) from the manifest. Printed like `apb run`'s, followed by one line per Table 4 row (Δ, flips, p).
 */
import type { Limits } from '../limits.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RefinementRow } from '../metrics/refinement.js';
import type { UsageTotals } from '../pipeline/manifest.js';
import type { RefineRunSummary } from '../pipeline/refine-run.js';
import { readJsonLines } from '../pipeline/results-store.js';
import { methodLabel } from '../report/labels.js';
import { fixed, pValue, signed } from '../report/numbers.js';
import type { EndOfRunSummary, SummaryEntry, SummaryNumber } from '../report/run-summary.js';
import type { RoleUsage } from '../report/usage.js';

type Table4Row = RefinementRow & { model: string; judge: string };

/** Correct answers and the reasons refinements failed, from the refined judgement lines. */
async function outcomesOf(
  dir: string,
  limits: Limits | undefined,
): Promise<{ correct: number; retries: number; failures: SummaryEntry['top_failures'] }> {
  let correct = 0;
  let retries = 0;
  const failures = new Map<string, { count: number; example: string }>();
  for await (const { value } of readJsonLines(
    path.join(dir, 'judgements.jsonl'),
    undefined,
    limits,
  )) {
    const line = value as {
      judgement?: { is_correct?: unknown };
      apb?: {
        attempts?: number;
        refinement?: {
          status?: string;
          critiques?: { attempts?: number }[];
          revisions?: { attempts?: number }[];
        };
        prediction?: { error?: { message?: string } };
      };
    };
    if (line.judgement?.is_correct === true) correct += 1;
    // HTTP attempts beyond the first, of every critique, revision and judge call of the line.
    const calls = [
      ...(line.apb?.refinement?.critiques ?? []),
      ...(line.apb?.refinement?.revisions ?? []),
      { attempts: line.apb?.attempts },
    ];
    for (const call of calls) retries += Math.max(0, (call.attempts ?? 0) - 1);
    const status = line.apb?.refinement?.status;
    if (!status || status === 'ok') continue;
    const entry = failures.get(status) ?? {
      count: 0,
      example: line.apb?.prediction?.error?.message ?? status,
    };
    failures.set(status, { ...entry, count: entry.count + 1 });
  }
  const top = [...failures]
    .map(([reason, entry]) => ({ reason, ...entry }))
    .sort((a, b) => b.count - a.count)
    .slice(0, 5);
  return { correct, retries, failures: top };
}

const roleUsage = (role: string, totals: UsageTotals | undefined): RoleUsage[] =>
  totals && totals.calls > 0
    ? [
        {
          role,
          calls: totals.calls,
          cached_calls: totals.cached_calls,
          input_tokens: totals.input_tokens,
          output_tokens: totals.output_tokens,
          cost_usd: totals.cost_usd,
        },
      ]
    : [];

/** Base and refined CR of each method and paper regime (step-wise = next-1, the paper's; next-2/3 rows stay in the tables). */
function headlineOf(rows: readonly Table4Row[]): SummaryNumber[] {
  return rows
    .filter((row) => !/^step_wise_next[2-9]/.test(row.regime))
    .flatMap((row) => [
      {
        label: `${methodLabel(row)} ${row.regime} base`,
        value: row.base_cr,
        ci: row.base_ci,
        n: row.n,
      },
      {
        label: `${methodLabel(row)} ${row.regime} refined`,
        value: row.refined_cr,
        ci: row.refined_ci,
        n: row.n,
      },
    ]);
}

/** The summary object of a finished refinement (its outputs already written) and its Table 4 rows. */
export async function buildRefineSummary(
  dir: string,
  summary: RefineRunSummary,
  wallMs: number,
  limits?: Limits,
): Promise<{ summary: EndOfRunSummary; table4: Table4Row[] }> {
  const { counts, usage, identity } = summary.manifest;
  const scores = JSON.parse(readFileSync(path.join(dir, 'scores.json'), 'utf8')) as {
    tables?: { table4?: Table4Row[] };
  };
  const table4 = scores.tables?.table4 ?? [];
  const { correct, retries, failures } = await outcomesOf(dir, limits);
  const roles = [
    ...roleUsage('planner', usage.planner),
    ...roleUsage('critic', usage.critic),
    ...roleUsage('judge', usage.judge),
  ];
  const cost = roles.some((role) => role.cost_usd === null)
    ? null
    : roles.reduce((sum, role) => sum + (role.cost_usd ?? 0), 0);
  const entry: SummaryEntry = {
    model: identity.tested_model,
    judge: table4[0]?.judge ?? identity.judges.join(' + '),
    dirs: [dir],
    headline: headlineOf(table4),
    outcomes: {
      judgements: counts.judgements.ok + counts.judgements.judge_error,
      ok: counts.predictions.ok,
      error: counts.predictions.error,
      parse_error: counts.predictions.parse_error,
      judge_error: counts.judgements.judge_error,
      correct,
    },
    top_failures: failures,
    usage: roles,
    cost_usd: cost,
    cost_per_correct_usd: cost !== null && correct > 0 ? cost / correct : null,
    cache_hits: roles.reduce((sum, role) => sum + role.cached_calls, 0),
    retries,
    rate_limited: null,
  };
  const notes =
    summary.alreadyDone > 0
      ? [`${summary.alreadyDone} answer(s) were already refined and judged in ${dir} (resumed)`]
      : [];
  return {
    summary: {
      command: 'refine',
      status: summary.status,
      wall_ms: wallMs,
      entries: [entry],
      report_html: path.join(dir, 'report.html'),
      report_md: path.join(dir, 'report.md'),
      view_command: `npx apb view ${dir}`,
      notes,
    },
    table4,
  };
}

/** One line per Table 4 row: base → refined, Δ, flips both ways, the exact McNemar p, failures. */
export function table4Lines(rows: readonly Table4Row[]): string[] {
  return rows.map(
    (row) =>
      `  ${methodLabel(row)} ${row.regime}: CR ${fixed(row.base_cr, 2)}% → ${fixed(row.refined_cr, 2)}% (Δ ${signed(row.delta, 2)}; n ${row.n}; ${row.flips.to_correct} turned correct, ${row.flips.to_incorrect} turned incorrect; McNemar p ${pValue(row.p_value)}${row.failed ? `; ${row.failed} refinement(s) failed` : ''})`,
  );
}
