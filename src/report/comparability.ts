/**
 * Which (model, judge) groups can be compared directly, and on what data. Two groups are directly
 * comparable when they share the judge, the protocol and the dataset (content hash), and on every
 * split both cover, the same planner and judge prompt versions: a model run on fewer splits stays
 * comparable on the ones it shares. Groups get tags (A, B, …): each joins the first set whose every
 * member it is comparable with. Apart from the tags, the report warns when rows cover different
 * data or different cases of a shared split. docs/reports.md ("Comparability").
 */
import type { ResultRow } from '../metrics/result-row.js';

/** What decides whether a group's numbers compare with another's. */
export interface ComparabilityProfile {
  judge: string;
  /** Protocol and judge mode from the run manifests ("unknown" without a manifest). */
  protocols: string[];
  /** Dataset content hashes from the manifests ("unknown" without one). */
  datasets: string[];
  /** Per split: planner prompt versions ("unknown" for lines that record none). */
  promptVersions: Record<string, string[]>;
  /** Per split: judge prompt versions. */
  judgePromptVersions: Record<string, string[]>;
  /** Per split: the case ids the group's rows cover. */
  caseIds: Record<string, string[]>;
}

/** One comparability set: a tag, its groups' models and what they share. */
export interface ComparabilityClass {
  tag: string;
  judge: string;
  models: string[];
  protocols: string[];
  datasets: string[];
  /** `split=version` of the planner prompts over the set's groups. */
  promptVersions: string[];
  judgePromptVersions: string[];
}

/** The comparability of a report: one set means every number is directly comparable. */
export interface Comparability {
  comparable: boolean;
  classes: ComparabilityClass[];
  /** Tag per group, keyed by `groupKey(model, judge)`. */
  tags: Record<string, string>;
  /** "Rows cover different data / different cases" warnings, for every format. */
  warnings: string[];
}

/** The key of a (model, judge) group in maps. */
export function groupKey(model: string, judge: string): string {
  return JSON.stringify([model, judge]);
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

function bySplit(
  rows: readonly ResultRow[],
  value: (row: ResultRow) => string,
): Record<string, string[]> {
  const collected: Record<string, Set<string>> = {};
  for (const row of rows) (collected[row.facets.split] ??= new Set()).add(value(row));
  return Object.fromEntries(
    Object.entries(collected).map(([split, values]) => [split, sorted(values)]),
  );
}

/** The comparability profile of one group, from its rows and the protocol and dataset labels of the runs they came from. */
export function comparabilityProfile(
  judge: string,
  rows: readonly ResultRow[],
  protocols: Iterable<string>,
  datasets: Iterable<string>,
): ComparabilityProfile {
  return {
    judge,
    protocols: sorted(protocols),
    datasets: sorted(datasets),
    promptVersions: bySplit(rows, (row) => row.promptVersion ?? 'unknown'),
    judgePromptVersions: bySplit(rows, (row) => row.judgePromptVersion ?? 'unknown'),
    caseIds: bySplit(rows, (row) => row.id),
  };
}

/** Whether two groups' numbers compare directly (on the splits they share). */
export function directlyComparable(a: ComparabilityProfile, b: ComparabilityProfile): boolean {
  if (
    a.judge !== b.judge ||
    !sameList(a.protocols, b.protocols) ||
    !sameList(a.datasets, b.datasets)
  )
    return false;
  return Object.keys(a.promptVersions)
    .filter((split) => b.promptVersions[split])
    .every(
      (split) =>
        sameList(a.promptVersions[split]!, b.promptVersions[split]!) &&
        sameList(a.judgePromptVersions[split] ?? [], b.judgePromptVersions[split] ?? []),
    );
}

function tagOf(index: number): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return index < letters.length ? letters[index]! : `Z${index - letters.length + 1}`;
}

/** The warnings of groups whose data or case sets differ. */
export function coverageWarnings(
  groups: readonly { model: string; judge: string; profile: ComparabilityProfile }[],
): string[] {
  const warnings: string[] = [];
  const datasets = sorted(groups.flatMap((group) => group.profile.datasets));
  if (datasets.length > 1)
    warnings.push(
      `Rows cover different data: ${datasets.length} datasets (content hashes ${datasets.map((hash) => hash.slice(0, 12)).join(', ')}); a number compares only with rows of its own dataset.`,
    );
  const name = (group: { model: string; judge: string }) => `${group.model} (${group.judge})`;
  // Cases are compared within one dataset: across datasets the data warning already says it all.
  const byData = new Map<string, (typeof groups)[number][]>();
  for (const group of groups)
    byData.set(group.profile.datasets.join(' '), [
      ...(byData.get(group.profile.datasets.join(' ')) ?? []),
      group,
    ]);
  for (const sameData of byData.values()) warnings.push(...caseWarnings(sameData, name));
  return warnings;
}

function caseWarnings(
  groups: readonly { model: string; judge: string; profile: ComparabilityProfile }[],
  name: (group: { model: string; judge: string }) => string,
): string[] {
  const warnings: string[] = [];
  const splits = sorted(groups.flatMap((group) => Object.keys(group.profile.caseIds)));
  for (const split of splits) {
    const covering = groups.filter((group) => group.profile.caseIds[split]);
    if (covering.length < 2) continue;
    const sets = covering.map((group) => new Set(group.profile.caseIds[split]!));
    const shared = [...sets[0]!].filter((id) => sets.every((set) => set.has(id))).length;
    if (sets.every((set) => set.size === shared)) continue;
    warnings.push(
      `Rows cover different cases on ${split}: ${covering.map((group, at) => `${name(group)} ${sets[at]!.size}`).join(', ')}; ${shared} shared by all. Compare them on the shared cases (the paired comparisons do).`,
    );
  }
  return warnings;
}

/** Tags groups by comparability set (A, B, … in first-seen order) and collects the coverage warnings. */
export function classifyGroups(
  groups: readonly { model: string; judge: string; profile: ComparabilityProfile }[],
): Comparability {
  const sets: { entry: ComparabilityClass; profiles: ComparabilityProfile[] }[] = [];
  const tags: Record<string, string> = {};
  for (const group of groups) {
    let set = sets.find((candidate) =>
      candidate.profiles.every((profile) => directlyComparable(profile, group.profile)),
    );
    if (!set) {
      const { judge, protocols, datasets } = group.profile;
      sets.push(
        (set = {
          entry: {
            tag: tagOf(sets.length),
            judge,
            models: [],
            protocols,
            datasets,
            promptVersions: [],
            judgePromptVersions: [],
          },
          profiles: [],
        }),
      );
    }
    set.profiles.push(group.profile);
    set.entry.models.push(group.model);
    const flat = (versions: Record<string, string[]>) =>
      Object.entries(versions).flatMap(([split, list]) =>
        list.map((version) => `${split}=${version}`),
      );
    set.entry.promptVersions = sorted([
      ...set.entry.promptVersions,
      ...flat(group.profile.promptVersions),
    ]);
    set.entry.judgePromptVersions = sorted([
      ...set.entry.judgePromptVersions,
      ...Object.values(group.profile.judgePromptVersions).flat(),
    ]);
    tags[groupKey(group.model, group.judge)] = set.entry.tag;
  }
  return {
    comparable: sets.length <= 1,
    classes: sets.map((set) => set.entry),
    tags,
    warnings: coverageWarnings(groups),
  };
}

/** A one-line description of what a set's groups share (for legends). */
export function describeClass(entry: ComparabilityClass): string {
  const versions = (values: string[]) => (values.length > 0 ? values.join(', ') : 'none');
  return `judge ${entry.judge}; dataset ${versions(entry.datasets.map((hash) => (hash === 'unknown' ? hash : `${hash.slice(0, 12)}…`)))}; judge prompts ${versions(entry.judgePromptVersions)}; planner prompts ${versions(entry.promptVersions)}; protocol ${versions(entry.protocols)}`;
}
