/**
 * `apb merge`: shard run directories → one run directory, the same files as one unsharded run.
 * Lines are streamed and copied as they are (never re-serialised); a (case, repeat) held by two
 * sources is kept once. The merged directory is an ordinary run directory: running into it without
 * `--shard` resumes whatever the sources did not finish.
 */
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createAtomicWriter, type AtomicWriter } from '../atomic-write.js';
import { InputError, UsageError, type InputIssue } from '../errors.js';
import { readLines } from '../jsonl-lines.js';
import { costOfLine, pricesAsOf } from './budget.js';
import { judgementKey } from './fingerprint.js';
import { readManifest, writeManifest, type Manifest, type MergeRecord } from './manifest.js';
import {
  assertMergeable,
  assertPlainFile,
  foreignField,
  isLink,
  missingShards,
  readMergeSource,
  type MergeSource,
} from './merge-sources.js';
import { RunTally } from './recount.js';
import type { JudgementLine, PredictionLine } from './records.js';
import { parseUntrustedJson } from '../json-depth.js';

/** What a merge did. */
export interface MergeSummary {
  outDir: string;
  manifest: Manifest;
  predictions: number;
  judgements: number;
  warnings: string[];
}

type Loose = Record<string, unknown>;

/** Dedupe key of a line: its fingerprint (and judge), or the official keys for a line without one. */
function keyOf(line: Loose, kind: 'prediction' | 'judgement'): string {
  const apb = line.apb as Loose | undefined;
  const fingerprint =
    kind === 'prediction' ? apb?.fingerprint : (apb?.prediction as Loose | undefined)?.fingerprint;
  const base =
    typeof fingerprint === 'string'
      ? fingerprint
      : JSON.stringify([
          line.split,
          line.id,
          line.tested_model,
          (apb?.prediction as Loose | undefined)?.repeat ?? apb?.repeat ?? 0,
        ]);
  return kind === 'prediction' ? base : judgementKey(base, String(line.judge_model));
}

/**
 * Appends every line of `file` not seen yet to `fd`; a torn last line (a source killed mid-write) is
 * skipped with a warning, any other unreadable line is an input error naming file and line.
 */
async function copyLines(
  file: string,
  out: AtomicWriter,
  kind: 'prediction' | 'judgement',
  seen: Set<string>,
  onLine: (line: Loose) => void,
  warn: (text: string) => void,
  manifest: Manifest,
  limits: Limits,
): Promise<number> {
  if (!existsSync(file) && !isLink(file)) return 0;
  assertPlainFile(file);
  let dropped = 0;
  let pending: InputIssue | null = null;
  for await (const { line: number, text } of readLines(file, undefined, limits)) {
    if (pending) throw new InputError([pending]);
    let line: Loose;
    try {
      line = parseUntrustedJson(text, limits.jsonDepth) as Loose;
    } catch (error) {
      pending = {
        file,
        line: number,
        field: '(line)',
        message: `invalid JSON: ${(error as Error).message}`,
      };
      continue;
    }
    const foreign = foreignField(line, kind, manifest);
    if (foreign) throw new InputError([{ file, line: number, ...foreign }]);
    const key = keyOf(line, kind);
    if (seen.has(key)) {
      dropped += 1;
      continue;
    }
    seen.add(key);
    out.write(`${text}\n`);
    onLine(line);
  }
  if (pending)
    warn(
      `${file}:${pending.line}: skipped an incomplete last line (the run was stopped while writing it)`,
    );
  return dropped;
}

function mergedStatus(
  sources: readonly MergeSource[],
  missing: readonly number[],
): Manifest['status'] {
  const statuses = sources.map((source) => source.manifest.status);
  if (missing.length === 0 && statuses.every((status) => status === 'complete')) return 'complete';
  if (
    missing.length === 0 &&
    statuses.every((status) => status === 'complete' || status === 'stopped-budget')
  )
    return 'stopped-budget';
  return 'interrupted';
}

function warningsOf(sources: readonly MergeSource[], missing: readonly number[]): string[] {
  const warnings = sources
    .filter((source) => source.manifest.status !== 'complete')
    .map(
      (source) => `${source.dir} is ${source.manifest.status}: the merge holds what it finished`,
    );
  const count = sources.find((source) => source.shard)?.shard?.count;
  if (missing.length > 0)
    warnings.push(
      `shard(s) ${missing.map((index) => `${index}/${count}`).join(', ')} not given: the merge is incomplete (run them, or run into the merged directory without --shard)`,
    );
  return warnings;
}

/** Copies every source's lines into `out` (each line once, each checked against its manifest), atomically. */
async function copySources(
  sources: readonly MergeSource[],
  out: string,
  tally: RunTally,
  warnings: string[],
  limits: Limits,
) {
  const dropped = { predictions: 0, judgements: 0 };
  const seen = { predictions: new Set<string>(), judgements: new Set<string>() };
  // Written atomically: a merge cut short leaves neither half a file nor a manifest.
  const predictions = createAtomicWriter(path.join(out, 'predictions.jsonl'));
  const judgements = createAtomicWriter(path.join(out, 'judgements.jsonl'));
  try {
    for (const source of sources) {
      const warn = (text: string) => warnings.push(text);
      dropped.predictions += await copyLines(
        path.join(source.dir, 'predictions.jsonl'),
        predictions,
        'prediction',
        seen.predictions,
        (line) => tally.addPrediction(line as PredictionLine),
        warn,
        source.manifest,
        limits,
      );
      dropped.judgements += await copyLines(
        path.join(source.dir, 'judgements.jsonl'),
        judgements,
        'judgement',
        seen.judgements,
        (line) => tally.addJudgement(line as JudgementLine),
        warn,
        source.manifest,
        limits,
      );
    }
    predictions.commit();
    judgements.commit();
  } catch (error) {
    predictions.abort();
    judgements.abort();
    throw error;
  }
  return { dropped, seen };
}

/**
 * Merges run directories (read under `limits`) into `outDir`, which must not hold a run yet;
 * scores and reports are the caller's next step.
 */
export async function mergeRuns(
  dirs: readonly string[],
  outDir: string,
  now: () => Date = () => new Date(),
  limits: Limits = DEFAULT_LIMITS,
): Promise<MergeSummary> {
  const sources = dirs.map((dir) => readMergeSource(dir, limits));
  assertMergeable(sources);
  const out = path.resolve(outDir);
  if (sources.some((source) => source.dir === out))
    throw new UsageError(
      `--out ${outDir} is one of the directories being merged: merge into a new directory`,
    );
  if (readManifest(out, limits))
    throw new UsageError(`--out ${outDir} already holds a run: merge into a new directory`);
  mkdirSync(out, { recursive: true });
  const missing = missingShards(sources);
  const warnings = warningsOf(sources, missing);
  const tally = new RunTally(costOfLine);
  const { dropped, seen } = await copySources(sources, out, tally, warnings, limits);
  const manifest = mergedManifest(sources, missing, tally, dropped, now());
  writeManifest(out, manifest);
  if (dropped.judgements > 0)
    warnings.push(
      `${dropped.judgements} judgement line(s) held by more than one source were kept once`,
    );
  return {
    outDir: out,
    manifest,
    predictions: seen.predictions.size,
    judgements: seen.judgements.size,
    warnings,
  };
}

function mergedManifest(
  sources: readonly MergeSource[],
  missing: number[],
  tally: RunTally,
  dropped: MergeRecord['duplicates_dropped'],
  at: Date,
): Manifest {
  const first = sources[0]!.manifest;
  const distinctShards = sources.every((source) => source.shard);
  // Each shard counts its own cases; without shards the sources may overlap, and the distinct (case, repeat)s are the count.
  const cases = distinctShards
    ? sources.reduce((sum, source) => sum + (source.manifest.counts?.cases ?? 0), 0)
    : null;
  const created = sources.map((source) => source.manifest.created_at).sort()[0] ?? at.toISOString();
  const base: Manifest = {
    ...first,
    created_at: created,
    selection: { ...first.selection, shard: null },
    budget: undefined,
  };
  const counted = tally.manifest(base, {
    total: cases ?? 0,
    invalidRecords: first.counts?.invalid_records ?? 0,
    alreadyDone: 0,
    status: mergedStatus(sources, missing),
    now: at,
    pricesAsOf: pricesAsOf(),
  });
  if (cases === null) {
    const predictions = counted.counts.predictions;
    counted.counts.cases = predictions.ok + predictions.error + predictions.parse_error;
  }
  const merge: MergeRecord = {
    sources: sources.map((source) => ({
      dir: source.dir,
      shard: source.manifest.selection?.shard ?? null,
      status: source.manifest.status,
      base_url: source.manifest.identity.base_url,
      judge_base_url: source.manifest.identity.judge_base_url,
    })),
    missing_shards: missing,
    duplicates_dropped: dropped,
  };
  return { ...counted, merge };
}
