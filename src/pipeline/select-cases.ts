/**
 * Case selection: which (case, repeat) pairs a run covers. A first streaming pass validates
 * everything before any model is called, so bad input is refused (or counted and skipped) up front.
 */
import type { Case, SplitName } from '../dataset/case.js';
import { readCases, type ReadOptions } from '../dataset/read-cases.js';
import { InputError, type InputIssue } from '../errors.js';

export interface Selection {
  datasetDir: string;
  splits: SplitName[];
  limitPerSplit?: number;
  ids?: ReadonlySet<string>;
  /** 1-based shard of the selected cases, by position. */
  shard?: { index: number; count: number };
  repeats: number;
}

export interface SelectionCheck {
  cases: number;
  invalidRecords: number;
  issues: InputIssue[];
}

function readOptions(selection: Selection): ReadOptions {
  const options: ReadOptions = { splits: selection.splits };
  if (selection.limitPerSplit !== undefined) options.limitPerSplit = selection.limitPerSplit;
  if (selection.ids) options.ids = selection.ids;
  return options;
}

/** Validates the selected cases; throws an `InputError` with every issue unless `skipInvalid`. */
export async function checkSelection(selection: Selection, skipInvalid: boolean): Promise<SelectionCheck> {
  const issues: InputIssue[] = [];
  let invalidRecords = 0;
  let cases = 0;
  for await (const _ of selectedCases(selection, (item) => {
    invalidRecords += 1;
    issues.push(...item);
  })) cases += 1;
  if (issues.length > 0 && !skipInvalid) throw new InputError(issues);
  return { cases, invalidRecords, issues };
}

/** Streams the selected, valid cases (shard applied); invalid lines go to `onInvalid`. */
export async function* selectedCases(selection: Selection, onInvalid: (issues: InputIssue[]) => void = () => {}): AsyncGenerator<Case> {
  let position = 0;
  for await (const item of readCases(selection.datasetDir, readOptions(selection))) {
    if (item.kind === 'invalid') {
      onInvalid(item.issues);
      continue;
    }
    position += 1;
    if (selection.shard && (position - 1) % selection.shard.count !== selection.shard.index - 1) continue;
    yield item.case;
  }
}
