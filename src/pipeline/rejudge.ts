/**
 * `rejudgeRun`: judges a finished run's saved predictions again with another judge (or panel),
 * never calling the planner. Into a new directory (predictions copied, a manifest naming the new
 * judge) or into the run's own (lines appended for the new judge). Resume-safe either way: a
 * (prediction fingerprint, judge) pair already judged is skipped. See docs/judge.md ("apb judge").
 */
import type { Limits } from '../limits.js';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { RunMismatchError } from '../errors.js';
import type { Judge } from '../judge/judge.js';
import { canonicalJson } from '../canonical-json.js';
import { costOfLine, pricesAsOf } from './budget.js';
import { isFatal, judgePrediction } from './evaluate-case.js';
import type { RunReporter } from './events.js';
import { judgementKey } from './fingerprint.js';
import {
  assertSameIdentity,
  readManifest,
  writeManifest,
  type Manifest,
  type ManifestIdentity,
} from './manifest.js';
import type { JudgementLine } from './records.js';
import { recountRun } from './recount.js';
import { JUDGEMENT_LINE } from './run-stores.js';
import type { JsonlStore } from '../rundir/jsonl-store.js';
import type { RunLock } from '../rundir/lock.js';
import { runUnits } from '../rundir/run-units.js';
import { resumeKeys, withSession, type RunSession, type UnitsEnd } from '../rundir/session.js';
import { loadSavedRun, type SavedPrediction } from './saved-predictions.js';

/** How the new judge was set up; recorded in the manifest's `rejudges`. */
export interface RejudgeEntry {
  judges: string[];
  judge_version: string;
  judge_base_url: string | string[] | null;
  judge_protocol: 'paper' | 'official';
  judge_blind: boolean;
  source: string;
}

/** What `apb judge` asks for. */
export interface RejudgeRequest {
  runDir: string;
  /** Same as `runDir` to append to the run's own judgements. */
  outDir: string;
  dataDir: string | null;
  judge: Judge;
  judgeIds: string[];
  judgeBaseUrl: string | null;
  protocol: 'paper' | 'official';
  blind: boolean;
  concurrency: number;
  /** The caps the run, its dataset and the judges' replies are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
}

export interface RejudgeSummary {
  dir: string;
  predictions: number;
  /** Pairs this judge had already judged (skipped). */
  alreadyDone: number;
  judged: number;
  interrupted: boolean;
}

type RejudgeManifest = Manifest & { rejudges?: RejudgeEntry[] };
/** The output directory's manifest, as the session writes it (the re-judge reads it itself: in place or not). */
const REJUDGE_MANIFEST = {
  read: () => null,
  write: (dir: string, manifest: RejudgeManifest) => writeManifest(dir, manifest),
};
const sameSetup = (a: RejudgeEntry, b: RejudgeEntry) =>
  canonicalJson({ ...a, source: '' }) === canonicalJson({ ...b, source: '' });

/** In the run's own directory: the run's identity stays; a judge id already used there must have been set up the same way. */
function inPlaceManifest(
  dir: string,
  manifest: RejudgeManifest,
  entry: RejudgeEntry,
): RejudgeManifest {
  const { identity } = manifest;
  const original: RejudgeEntry = {
    judges: identity.judges,
    judge_version: identity.judge_version,
    judge_base_url: identity.judge_base_url,
    judge_protocol: identity.protocol,
    judge_blind: identity.judge_blind,
    source: dir,
  };
  const earlier = [original, ...(manifest.rejudges ?? [])].find(
    (other) => canonicalJson(other.judges) === canonicalJson(entry.judges),
  );
  if (earlier && !sameSetup(earlier, entry)) {
    throw new RunMismatchError(
      `${dir} already holds judgements of ${entry.judges.join(' + ')} made with other settings (version, base URL, protocol or blindness); write the new ones elsewhere with --out DIR`,
    );
  }
  return earlier ? manifest : { ...manifest, rejudges: [...(manifest.rejudges ?? []), entry] };
}

/** In a new directory: the run's manifest with the new judge as its identity; an existing one must match (resume). */
function outManifest(
  request: RejudgeRequest,
  run: RejudgeManifest,
  entry: RejudgeEntry,
): RejudgeManifest {
  const identity: ManifestIdentity = {
    ...run.identity,
    judges: entry.judges,
    judge_version: entry.judge_version,
    judge_base_url: entry.judge_base_url,
    judge_blind: entry.judge_blind,
  };
  const existing = readManifest(request.outDir, request.limits) as RejudgeManifest | null;
  if (existing) {
    assertSameIdentity(request.outDir, existing.identity, identity);
    const previous = existing.rejudges?.[0];
    if (!previous || !sameSetup(previous, entry))
      throw new RunMismatchError(`${request.outDir} holds other results; give a new --out DIR`);
    return existing;
  }
  if (
    existsSync(path.join(request.outDir, 'predictions.jsonl')) ||
    existsSync(path.join(request.outDir, 'judgements.jsonl'))
  ) {
    throw new RunMismatchError(
      `${request.outDir} holds results without a manifest; give a new --out DIR`,
    );
  }
  mkdirSync(request.outDir, { recursive: true });
  copyFileSync(
    path.join(request.runDir, 'predictions.jsonl'),
    path.join(request.outDir, 'predictions.jsonl'),
  );
  return { ...run, identity, rejudges: [entry] };
}

/** Judges the pending items through `runUnits`; a fatal error cancels the calls in flight. Returns how many lines it wrote. */
async function judgeAll(
  session: RunSession<RejudgeManifest>,
  items: SavedPrediction[],
  judge: Judge,
  judgements: JsonlStore<JudgementLine>,
  concurrency: number,
  reporter: RunReporter | undefined,
  jsonDepth?: number,
): Promise<{ written: number; end: UnitsEnd }> {
  let written = 0;
  const end = await runUnits(
    session,
    items,
    async ({ caseItem, prediction, prompt }, signal) => {
      const line = await judgePrediction(caseItem, prediction, prompt, {
        judge,
        signal,
        jsonDepth,
      });
      judgements.append(line);
      written += 1;
      reporter?.onCaseEnd?.({
        id: caseItem.id,
        split: caseItem.split,
        repeat: prediction.apb.repeat,
        plannerStatus: prediction.apb.status,
        judgeStatus: line.apb.status,
        correct: line.judgement.is_correct,
      });
    },
    { concurrency, expected: (error, signal) => signal.aborted && isFatal(error) },
  );
  return { written, end };
}

/** Progress, clock and the two interrupt signals (as `apb run` takes them). */
export interface RejudgeDependencies {
  reporter?: RunReporter;
  /** Aborted: launch nothing new; judgements in flight finish. */
  stop?: AbortSignal;
  /** Aborted: cancel the judge calls in flight too. */
  signal?: AbortSignal;
  now?: () => Date;
  /** The output directory's lock when the caller took it; else the re-judge takes it. */
  lock?: RunLock;
}

/** Re-judges a run's saved predictions; zero planner calls. */
export async function rejudgeRun(
  request: RejudgeRequest,
  deps: RejudgeDependencies = {},
): Promise<RejudgeSummary> {
  const now = deps.now ?? (() => new Date());
  const runDir = path.resolve(request.runDir);
  const outDir = path.resolve(request.outDir);
  const saved = await loadSavedRun(runDir, request.dataDir, request.limits);
  const entry: RejudgeEntry = {
    judges: request.judgeIds,
    judge_version: request.judge.version,
    judge_base_url: request.judgeBaseUrl,
    judge_protocol: request.protocol,
    judge_blind: request.blind,
    source: runDir,
  };
  return withSession(
    {
      dir: outDir,
      command: 'judge',
      manifest: REJUDGE_MANIFEST,
      ...(deps.lock ? { heldLock: deps.lock } : {}),
      stop: deps.stop,
      signal: deps.signal,
      limits: request.limits,
    },
    (session) => rejudgeIn(session, { ...request, runDir, outDir }, saved, entry, deps),
  );
}

/** The re-judge inside its open session: the manifest, the pending pairs through `runUnits`, the recount. */
async function rejudgeIn(
  session: RunSession<RejudgeManifest>,
  request: RejudgeRequest,
  saved: Awaited<ReturnType<typeof loadSavedRun>>,
  entry: RejudgeEntry,
  deps: RejudgeDependencies,
): Promise<RejudgeSummary> {
  const now = deps.now ?? (() => new Date());
  const { runDir, outDir } = request;
  const inPlace = outDir === runDir;
  const manifest = inPlace
    ? inPlaceManifest(runDir, saved.manifest, entry)
    : outManifest(request, saved.manifest, entry);
  session.running({
    ...manifest,
    updated_at: now().toISOString(),
    ...(inPlace ? {} : { status: 'running' as const, finished_at: null }),
  });
  const judgements = session.store('judgements.jsonl', JUDGEMENT_LINE);
  const finished = await resumeKeys(judgements, (line) =>
    line.judge_model === request.judge.id && line.apb?.prediction?.fingerprint
      ? judgementKey(line.apb.prediction.fingerprint, line.judge_model)
      : null,
  );
  const pending = saved.items.filter(
    (item) => !finished.has(judgementKey(item.prediction.apb.fingerprint, request.judge.id)),
  );
  const alreadyDone = saved.items.length - pending.length;
  const total = saved.items.length;
  deps.reporter?.onRunStart?.({ dir: outDir, total, alreadyDone, invalidRecords: 0 });
  const { written: judged, end } = await judgeAll(
    session,
    pending,
    request.judge,
    judgements,
    request.concurrency,
    deps.reporter,
    request.limits?.jsonDepth,
  );
  const interrupted = session.interrupted(end);
  const { counts } = manifest;
  // In the run's own directory the run's status and end time stay; only counts and usage follow the files.
  const status = inPlace ? manifest.status : session.statusOf(end);
  const recounted = await recountRun(outDir, manifest, {
    total: counts.cases,
    invalidRecords: counts.invalid_records,
    alreadyDone: counts.resumed,
    status,
    now: now(),
    costOf: costOfLine,
    pricesAsOf: pricesAsOf(),
    limits: request.limits,
  });
  session.finish(inPlace ? { ...recounted, finished_at: manifest.finished_at } : recounted);
  if (end.failure) throw end.failure;
  deps.reporter?.onRunEnd?.({ dir: outDir, finished: alreadyDone + judged, interrupted });
  return { dir: outDir, predictions: total, alreadyDone, judged, interrupted };
}
