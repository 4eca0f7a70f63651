/**
 * `apb data stats` as Markdown: per split, one row per statistic with a column per dataset and the
 * release's figure beside them; then each dataset's sources; then Tables 10 and 11 of the release
 * beside the holistic split. Counts read "value: n (share of the split)", so a horizon mix is seen
 * at a glance (the release: a third each).
 */
import type { Counts, DatasetStats, GroupStats, SplitStats } from './stats.js';
import type { ReleaseSplitStats, ReleaseStats } from './stats-release.js';

const fixed = (value: number | null | undefined, places = 2) =>
  value === null || value === undefined ? '—' : value.toFixed(places);

/** "1: 300 (33.3 %), 2: …" in key order (numbers numerically). */
export function countsText(counts: Counts | undefined, total: number): string {
  if (!counts || Object.keys(counts).length === 0) return '—';
  return Object.entries(counts)
    .sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b))
    .map(
      ([key, count]) =>
        `${key}: ${count} (${total > 0 ? ((100 * count) / total).toFixed(1) : '0.0'} %)`,
    )
    .join(', ');
}

type Row = [
  label: string,
  ours: (stats: GroupStats) => string,
  release: (r: ReleaseSplitStats) => string,
];

const ROWS: Row[] = [
  ['cases', (s) => String(s.cases), (r) => String(r.cases)],
  ['parent tasks', (s) => String(s.parents), (r) => (r.parents ? String(r.parents) : '—')],
  ['steps per case', (s) => fixed(s.avg_steps), (r) => fixed(r.avg_steps)],
  [
    'steps 1–10 / 11–20 / >20',
    (s) => Object.values(s.steps_bins).join(' / '),
    (r) => r.steps_bins?.join(' / ') ?? '—',
  ],
  [
    'tools per query',
    (s) => fixed(s.avg_tools),
    (r) => (r.avg_tools ? `${r.avg_tools} (augmented sources)` : '—'),
  ],
  ['horizons', (s) => countsText(s.horizons, s.cases), (r) => countsText(r.horizons, r.cases)],
  ['stages', (s) => countsText(s.stages, s.cases), (r) => countsText(r.stages, r.cases)],
  ['extraneous levels', (s) => countsText(s.levels, s.cases), (r) => countsText(r.levels, r.cases)],
  [
    'unsolvable types',
    (s) => countsText(s.unsolvable_types, s.cases),
    (r) => countsText(r.unsolvable_types, r.cases),
  ],
  [
    'broken tool worked earlier',
    (s) =>
      s.broken_tool_used_earlier === null ? '—' : `${s.broken_tool_used_earlier} / ${s.cases}`,
    (r) => (r.broken_tool_used_earlier ? `${r.broken_tool_used_earlier} / ${r.cases}` : '—'),
  ],
  ['modalities', (s) => countsText(s.modalities, s.cases), () => '—'],
  [
    'categories',
    (s) => String(Object.keys(s.categories).length),
    (r) => (r.categories ? String(r.categories) : '—'),
  ],
];

const table = (header: string[], rows: string[][]) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');

function splitSection(split: string, datasets: DatasetStats[], release: ReleaseStats): string {
  const own = datasets.map((stats) => stats.splits.find((entry) => entry.split === split));
  const released = release.splits[split];
  const header = ['statistic', ...datasets.map((stats) => stats.dir), 'release (paper)'];
  const rows = ROWS.map(([label, ours, theirs]) => [
    label,
    ...own.map((entry) => (entry ? ours(entry) : '—')),
    released ? theirs(released) : '—',
  ]).filter((row) => row.slice(1).some((cell) => cell !== '—'));
  const sources = datasets.flatMap((stats, index) => {
    const entry = own[index];
    return entry ? [sourceTable(entry, datasets.length > 1 ? stats.dir : null)] : [];
  });
  return [`## ${split}`, table(header, rows), ...sources].join('\n\n');
}

function sourceTable(entry: SplitStats, dir: string | null): string {
  const rows = Object.entries(entry.sources).map(([source, stats]) => [
    source,
    String(stats.cases),
    String(stats.parents),
    fixed(stats.avg_steps),
    fixed(stats.avg_tools),
    countsText(stats.horizons, stats.cases),
    countsText(stats.levels, stats.cases),
    countsText(stats.unsolvable_types, stats.cases),
  ]);
  const header = [
    'source',
    'cases',
    'parents',
    'steps',
    'tools',
    'horizons',
    'levels',
    'unsolvable',
  ];
  const kept = header.map((_, column) => column < 5 || rows.some((row) => row[column] !== '—'));
  const pick = (row: string[]) => row.filter((_, column) => kept[column]);
  return `Per source${dir ? ` (${dir})` : ''}:\n\n${table(pick(header), rows.map(pick))}`;
}

function releaseTables(release: ReleaseStats): string {
  const steps = table(
    ['source', 'cases', 'avg steps', '1–10', '11–20', '>20'],
    release.table10_holistic_steps.map((row) => [
      row.dataset,
      String(row.total),
      fixed(row.avg_steps),
      String(row.steps_1_10),
      String(row.steps_11_20),
      String(row.steps_gt_20),
    ]),
  );
  const { augmentation } = release;
  return [
    "## The release's holistic split (paper Tables 10–11, Appendix B.1)",
    steps,
    `After B.1 augmentation (${augmentation.datasets.join(', ')}): ${augmentation.avg_steps} steps (+${augmentation.avg_steps_increase}) and ${augmentation.avg_tools} tools (+${augmentation.avg_tools_increase}) per query on average.`,
    `Categories (${Object.keys(release.table11_categories).length}): ${Object.entries(
      release.table11_categories,
    )
      .map(([name, count]) => `${name} ${count}`)
      .join(', ')}.`,
  ].join('\n\n');
}

/** The whole Markdown page: one section per split present in any dataset, then the release's tables. */
export function renderStatsMarkdown(datasets: DatasetStats[], release: ReleaseStats): string {
  const splits = [
    ...new Set(datasets.flatMap((stats) => stats.splits.map((entry) => entry.split))),
  ];
  const totals = datasets
    .map((stats) => `${stats.dir}: ${stats.cases} case(s), ${stats.invalid} invalid record(s)`)
    .join('; ');
  return `${[
    '# Dataset statistics',
    `${totals}. Release (paper §3.1): ${release.total} cases. ${release.source}`,
    ...splits.map((split) => splitSection(split, datasets, release)),
    releaseTables(release),
  ].join('\n\n')}\n`;
}
