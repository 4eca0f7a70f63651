/**
 * The sections at the top of every report, as table views: the headline scorecard (Table 1's five
 * numbers with CIs per model and judge) and "Usage and cost" (per role and model, and per endpoint).
 * Shared by the Markdown, CSV and HTML renderers like every other table.
 */
import { groupKey } from './comparability.js';
import type { ReportData } from './report-data.js';
import { HEADLINE_KEYS, HEADLINE_NOTES, type HeadlineKey } from './scorecard.js';
import { tableView, type Column, type GroupRow, type TableView } from './table-columns.js';
import type { RoleUsage, UsageRow } from './usage.js';

/** The headline numbers' column labels. */
export const LABELS = {
  holistic: 'Holistic CR %',
  step_wise: 'Step-wise CR %',
  tool_extraneous: 'Tool-extraneous CR %',
  tool_broken: 'Tool-broken Replace %',
  unsolvable: 'Unsolvable pass %',
} as const;

function identity<Row extends GroupRow>(data: ReportData): Column<Row>[] {
  const columns: Column<Row>[] = [
    { key: 'model', label: 'Model', kind: 'model', get: (row) => row.model },
    { key: 'judge', label: 'Judge', kind: 'judge', get: (row) => row.judge },
  ];
  if (!data.comparability.comparable)
    columns.push({
      key: 'tag',
      label: 'Set',
      kind: 'text',
      get: (row) => data.comparability.tags[groupKey(row.model, row.judge)] ?? '–',
    });
  return columns;
}

/** The headlines some scorecard row has cases for, in order. */
export function presentHeadlines(data: ReportData): HeadlineKey[] {
  return HEADLINE_KEYS.filter((key) =>
    data.scorecard.some((row) => (row.cells.find((cell) => cell.key === key)?.n ?? 0) > 0),
  );
}

/**
 * The scorecard view: one row per (model, judge), ranked; a headline column appears only when some
 * row has cases for it.
 */
export function scorecardView(data: ReportData): TableView {
  const present = presentHeadlines(data);
  const cell = (row: ScorecardRow, key: string) =>
    row.cells.find((entry) => entry.key === key) ?? null;
  const columns = present.flatMap((key): Column<ScorecardRow>[] => [
    { key, label: `${LABELS[key]} [95 % CI]`, kind: 'rate-ci', get: (row) => cell(row, key) },
    { key: `${key}_n`, label: 'n', kind: 'count', get: (row) => cell(row, key)?.n ?? null },
  ]);
  const status: Column<ScorecardRow>[] = data.scorecard.some((row) => row.unfinished)
    ? [
        {
          key: 'run_status',
          label: 'Run',
          kind: 'text',
          get: (row) => row.unfinished ?? 'complete',
        },
      ]
    : [];
  const notes = present
    .map((key) => `${LABELS[key].replace(' %', '')}: ${HEADLINE_NOTES[key]}`)
    .join('; ');
  return tableView<ScorecardRow>({
    id: 'scorecard',
    title: 'Scorecard',
    description: `Table 1's headline numbers in percent with 95 % intervals, ranked by ${LABELS[data.rankBy].replace(' %', '')} (# = place; – = no value). ${notes}.`,
    columns: [
      { key: 'rank', label: '#', kind: 'count', get: (row) => row.rank ?? null },
      ...identity<ScorecardRow>(data),
      ...columns,
      ...status,
    ],
    rows: data.scorecard,
  });
}

type ScorecardRow = ReportData['scorecard'][number];
type EndpointRow = ReportData['usage']['endpoints'][number];

const role = (row: UsageRow, name: string): RoleUsage | undefined =>
  row.roles.find((entry) => entry.role === name);

/** The four columns of one role: calls, tokens in and out, cost. */
const roleColumns = (name: string): Column<UsageRow>[] => [
  {
    key: `${name}_calls`,
    label: `${name} calls`,
    kind: 'count',
    get: (row) => role(row, name)?.calls ?? null,
  },
  {
    key: `${name}_input_tokens`,
    label: `${name} tokens in`,
    kind: 'count',
    get: (row) => role(row, name)?.input_tokens ?? null,
  },
  {
    key: `${name}_output_tokens`,
    label: `${name} tokens out`,
    kind: 'count',
    get: (row) => role(row, name)?.output_tokens ?? null,
  },
  {
    key: `${name}_cost_usd`,
    label: `${name} cost`,
    kind: 'usd',
    get: (row) => role(row, name)?.cost_usd ?? null,
  },
];

/** The p50 and p95 latency columns of the planner's or the judge's calls. */
const latencyColumns = (name: 'planner' | 'judge'): Column<UsageRow>[] => [
  {
    key: `${name}_latency_p50_ms`,
    label: `${name} p50 ms`,
    kind: 'ms',
    get: (row) => row.latency[name].p50,
  },
  {
    key: `${name}_latency_p95_ms`,
    label: `${name} p95 ms`,
    kind: 'ms',
    get: (row) => row.latency[name].p95,
  },
];

/**
 * "Usage and cost" per (model, judge): one column group per role the runs have, then cost per
 * correct case, latency, cache, retries, 429s.
 */
export function usageView(data: ReportData): TableView {
  const roles = [
    ...new Set(
      data.usage.rows.flatMap((row) =>
        row.roles.filter((entry) => entry.calls > 0).map((entry) => entry.role),
      ),
    ),
  ];
  const columns: Column<UsageRow>[] = [
    ...identity<UsageRow>(data),
    ...roles.flatMap(roleColumns),
    { key: 'cost_usd', label: 'total cost', kind: 'usd', get: (row) => row.cost_usd },
    { key: 'correct', label: 'correct', kind: 'count', get: (row) => row.correct },
    {
      key: 'cost_per_correct_usd',
      label: 'cost per correct',
      kind: 'usd',
      get: (row) => row.cost_per_correct_usd,
    },
    ...latencyColumns('planner'),
    ...latencyColumns('judge'),
    { key: 'cache_hits', label: 'cache hits', kind: 'count', get: (row) => row.cache_hits },
    { key: 'retries', label: 'retries', kind: 'count', get: (row) => row.retries },
    { key: 'rate_limited', label: '429s', kind: 'count', get: (row) => row.rate_limited },
  ];
  const prices = data.usage.pricesAsOf
    ? ` Costs at the prices of data/prices.json as of ${data.usage.pricesAsOf}; – where a model ` +
      'has no price.'
    : ' – where a model has no price.';
  return tableView<UsageRow>({
    id: 'usage',
    title: 'Usage and cost',
    description:
      'Calls, tokens and cost per role as the runs recorded them (a cache hit is a call with no ' +
      `tokens or cost).${prices} Latency: nearest-rank percentiles over calls that reached an ` +
      'endpoint. 429s are counted per endpoint and shared by the models of one command.',
    columns,
    rows: data.usage.rows,
  });
}

/** The endpoints the runs called, with the engine's counts; empty when no manifest records any. */
export function endpointsView(data: ReportData): TableView {
  const count = (key: keyof EndpointRow, label: string): Column<EndpointRow> => ({
    key,
    label,
    kind: 'count',
    get: (row) => row[key],
  });
  return tableView<EndpointRow>({
    id: 'endpoints',
    title: 'Endpoints',
    description:
      'Requests per endpoint (each HTTP attempt), answered 429, other failures, most in flight, and the adaptive concurrency limit (its lowest value).',
    columns: [
      { key: 'endpoint', label: 'Endpoint', kind: 'text', get: (row) => row.endpoint },
      count('requests', 'requests'),
      count('ok', 'ok'),
      count('rate_limited', '429s'),
      count('failed', 'failed'),
      count('max_in_flight', 'most in flight'),
      count('limit', 'limit'),
      count('min_limit', 'lowest limit'),
      count('set_aside', 'set aside'),
    ],
    rows: data.usage.endpoints,
  });
}

/** The views of the report's top: scorecard, usage and cost, endpoints (each only when it has rows). */
export function headlineViews(data: ReportData): TableView[] {
  return [scorecardView(data), usageView(data), endpointsView(data)].filter(
    (view) => view.rows.length > 0 && view.columns.length > 2,
  );
}
