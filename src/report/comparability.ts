/**
 * Which (model, judge) groups can be compared directly: groups judged by another judge, with other
 * judge or planner prompt versions, or under another protocol get another tag (A, B, …), and rows
 * with different tags are labelled "not directly comparable" in every report.
 */
import type { ResultRow } from '../metrics/result-row.js';

/** What must be equal for two groups' numbers to be compared directly. */
export interface ComparabilityKey {
  judge: string;
  judgePromptVersions: string[];
  /** `split=version` of the planner prompts; "unknown" for lines that do not record one (official harness). */
  promptVersions: string[];
  /** Protocol and judge mode from the run manifests ("unknown" without a manifest). */
  protocols: string[];
}

/** One comparability class: a tag and what its groups share. */
export interface ComparabilityClass extends ComparabilityKey {
  tag: string;
  /** `model` of every group in the class. */
  models: string[];
}

/** The comparability of a report: one class means every number is directly comparable. */
export interface Comparability {
  comparable: boolean;
  classes: ComparabilityClass[];
  /** Tag per group, keyed by `groupKey(model, judge)`. */
  tags: Record<string, string>;
}

/** The key of a (model, judge) group in maps. */
export function groupKey(model: string, judge: string): string {
  return JSON.stringify([model, judge]);
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** The comparability key of one group, from its rows and the protocol labels of the runs they came from. */
export function comparabilityKey(judge: string, rows: readonly ResultRow[], protocols: Iterable<string>): ComparabilityKey {
  return {
    judge,
    judgePromptVersions: sorted(rows.map((row) => row.judgePromptVersion ?? 'unknown')),
    promptVersions: sorted(rows.map((row) => `${row.facets.split}=${row.promptVersion ?? 'unknown'}`)),
    protocols: sorted(protocols),
  };
}

/** Tags groups by comparability class (A, B, … in first-seen order). */
export function classifyGroups(groups: readonly { model: string; judge: string; key: ComparabilityKey }[]): Comparability {
  const classes = new Map<string, ComparabilityClass>();
  const tags: Record<string, string> = {};
  for (const group of groups) {
    const id = JSON.stringify(group.key);
    let entry = classes.get(id);
    if (!entry) classes.set(id, (entry = { ...group.key, tag: tagOf(classes.size), models: [] }));
    entry.models.push(group.model);
    tags[groupKey(group.model, group.judge)] = entry.tag;
  }
  return { comparable: classes.size <= 1, classes: [...classes.values()], tags };
}

function tagOf(index: number): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return index < letters.length ? letters[index]! : `Z${index - letters.length + 1}`;
}

/** A one-line description of what a class's groups share (for legends). */
export function describeClass(entry: ComparabilityClass): string {
  const versions = (values: string[]) => (values.length > 0 ? values.join(', ') : 'none');
  return `judge ${entry.judge}; judge prompts ${versions(entry.judgePromptVersions)}; planner prompts ${versions(entry.promptVersions)}; protocol ${versions(entry.protocols)}`;
}
