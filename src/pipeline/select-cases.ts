/**
 * Case selection: which (case, repeat) pairs a run covers. A first streaming pass validates
 * everything before any model is called, so bad input is refused (or counted and skipped) up front.
 */
import type { Case, SplitName } from '../dataset/case.js';
import { ContentHasher } from '../dataset/content-hash.js';
import { FileResolver } from '../dataset/files.js';
import { readCases, type ReadOptions } from '../dataset/read-cases.js';
import { InputError, UsageError, type InputIssue } from '../errors.js';
import type { Limits } from '../limits.js';
import { inShard, type Shard } from './shard.js';

export interface Selection {
  datasetDir: string;
  splits: SplitName[];
  limitPerSplit?: number;
  ids?: ReadonlySet<string>;
  /** 1-based shard of the selected cases: a stable partition by case id (`shard.ts`). */
  shard?: Shard;
  repeats: number;
  /** The caps the dataset is read under; default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

export interface SelectionCheck {
  cases: number;
  invalidRecords: number;
  issues: InputIssue[];
  /** What the run's second pass needs to trust the first: the resolver and the invalid lines to skip. */
  trust: { resolver: FileResolver; invalidLines: Set<string> };
  /** The selection's dataset content hash, computed while validating; null when the pass did not read every byte (`--limit`). */
  datasetHash: string | null;
}

function readOptions(
  selection: Selection,
  resolver: FileResolver,
  trusted?: { invalidLines: ReadonlySet<string> },
): ReadOptions {
  const options: ReadOptions = { splits: selection.splits, resolver };
  if (trusted) options.trusted = trusted;
  if (selection.limitPerSplit !== undefined) options.limitPerSplit = selection.limitPerSplit;
  if (selection.ids) options.ids = selection.ids;
  if (selection.limits) options.limits = selection.limits;
  return options;
}

/** Validates the selected cases; throws an `InputError` with every issue unless `skipInvalid`. */
export async function checkSelection(
  selection: Selection,
  skipInvalid: boolean,
): Promise<SelectionCheck> {
  const issues: InputIssue[] = [];
  const trust = {
    resolver: new FileResolver(selection.datasetDir, selection.limits),
    invalidLines: new Set<string>(),
  };
  let invalidRecords = 0;
  let cases = 0;
  const onInvalid = (item: InputIssue[]) => {
    invalidRecords += 1;
    issues.push(...item);
    if (item[0]) trust.invalidLines.add(`${item[0].file}:${item[0].line}`);
  };
  const hasher = new ContentHasher();
  for await (const _ of readSelected(
    selection,
    { ...readOptions(selection, trust.resolver), hasher },
    onInvalid,
  ))
    cases += 1;
  if (issues.length > 0 && !skipInvalid) throw new InputError(issues);
  // A shard may hold none of the ids; without one, ids that match nothing are a mistake, not an empty run.
  if (selection.ids && selection.ids.size > 0 && cases === 0 && !selection.shard) {
    const shown = [...selection.ids].slice(0, 5).join(', ');
    throw new UsageError(
      `--ids matched no case in ${selection.splits.join(', ')} (${shown}${selection.ids.size > 5 ? ', …' : ''}); ids are matched exactly, per split`,
    );
  }
  return { cases, invalidRecords, issues, trust, datasetHash: hasher.digest() };
}

/**
 * Streams the selected, valid cases (shard applied) of a selection that `checkSelection` already
 * validated: the second pass skips the lines found invalid and redoes no schema work.
 */
export function selectedCases(selection: Selection, check: SelectionCheck): AsyncGenerator<Case> {
  return readSelected(
    selection,
    readOptions(selection, check.trust.resolver, { invalidLines: check.trust.invalidLines }),
    () => {},
  );
}

async function* readSelected(
  selection: Selection,
  options: ReadOptions,
  onInvalid: (issues: InputIssue[]) => void,
): AsyncGenerator<Case> {
  for await (const item of readCases(selection.datasetDir, options)) {
    if (item.kind === 'invalid') {
      onInvalid(item.issues);
      continue;
    }
    if (selection.shard && !inShard(item.case.id, selection.shard)) continue;
    yield item.case;
  }
}
