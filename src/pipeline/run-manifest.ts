/** The manifest a run starts with: its identity (what must match on resume) and its selection. */
import { SETTINGS } from '../settings/index.js';
import { APB_VERSION } from '../version.js';
import { datasetContentHash } from '../dataset/content-hash.js';
import { emptyUsageTotals, type Manifest, type ManifestIdentity } from './manifest.js';
import type { Planner } from './planner.js';
import { emptyCaseInput } from './prompt-versions.js';
import type { Selection } from './select-cases.js';
import { formatShard } from './shard.js';
import type { PromptOptions } from '../settings/prompt.js';

/** What of a resolved run the manifest records (`ResolvedRun` has it all). */
export interface RunDescription {
  selection: Selection;
  promptOptions: PromptOptions;
  /** The planner's endpoint(s); several are a balanced fleet of one model. */
  baseUrl: string | readonly string[] | null;
  judgeIds: string[];
  judgeBaseUrl: string | readonly string[] | null;
  judgeVersion: string;
  judgeBlind: boolean;
}

/**
 * What must be equal for a rerun to write into the same directory. `datasetHash` is the selection's
 * content hash when the validation pass could compute it while reading; otherwise it is computed here.
 */
export async function identityOf(
  run: RunDescription,
  planner: Planner,
  datasetHash: string | null = null,
): Promise<ManifestIdentity> {
  const prompt_versions = Object.fromEntries(
    run.selection.splits.map((split) => [
      split,
      SETTINGS[split].buildPrompt(emptyCaseInput(split), run.promptOptions).promptVersion,
    ]),
  );
  return {
    dataset_content_hash:
      datasetHash ?? (await datasetContentHash(run.selection.datasetDir, run.selection.splits)),
    tested_model: planner.id,
    base_url: endpointIdentity(run.baseUrl),
    judges: run.judgeIds,
    judge_base_url: endpointIdentity(run.judgeBaseUrl),
    judge_version: run.judgeVersion,
    protocol: run.promptOptions.protocol,
    allow_refusal: run.promptOptions.allowRefusal,
    judge_blind: run.judgeBlind,
    prompt_versions,
    sampling: planner.sampling,
  };
}

/**
 * The endpoints as the manifest's identity records them: null for none, the URL for one (as before
 * several endpoints existed), the list for a fleet (so resuming with another set of endpoints is refused).
 */
export function endpointIdentity(
  urls: string | readonly string[] | null,
): string | string[] | null {
  if (urls === null || typeof urls === 'string') return urls;
  const distinct = [...new Set(urls)];
  return distinct.length === 0 ? null : distinct.length === 1 ? distinct[0]! : distinct;
}

/** The head of an invocation's `running` manifest: version, status and times, the creation time kept from an earlier invocation. */
export function runningHead(
  previous: Manifest | null,
  now: Date,
): Pick<
  Manifest,
  'apb_version' | 'schema_version' | 'status' | 'created_at' | 'updated_at' | 'finished_at'
> {
  return {
    apb_version: APB_VERSION,
    schema_version: 1,
    status: 'running',
    created_at: previous?.created_at ?? now.toISOString(),
    updated_at: now.toISOString(),
    finished_at: null,
  };
}

/** Counts and usage carried over from an earlier invocation (recounted from the files at the end), or zero. */
export function carriedTotals(previous: Manifest | null): Pick<Manifest, 'counts' | 'usage'> {
  return {
    counts: previous?.counts ?? {
      cases: 0,
      invalid_records: 0,
      resumed: 0,
      predictions: { ok: 0, error: 0, parse_error: 0 },
      judgements: { ok: 0, judge_error: 0 },
    },
    usage: previous?.usage ?? { planner: emptyUsageTotals(), judge: emptyUsageTotals() },
  };
}

/** The `running` manifest of an invocation, keeping what an earlier one recorded. */
export function startManifest(
  run: RunDescription,
  identity: ManifestIdentity,
  previous: Manifest | null,
  now: Date,
): Manifest {
  const { selection } = run;
  const { counts, usage } = carriedTotals(previous);
  return {
    ...runningHead(previous, now),
    dataset: { path: selection.datasetDir, content_hash: identity.dataset_content_hash },
    splits: selection.splits,
    selection: {
      limit: selection.limitPerSplit ?? null,
      ids: selection.ids ? [...selection.ids] : null,
      shard: selection.shard ? formatShard(selection.shard) : null,
      repeats: selection.repeats,
    },
    identity: previous
      ? {
          ...identity,
          prompt_versions: { ...previous.identity.prompt_versions, ...identity.prompt_versions },
        }
      : identity,
    counts,
    ...(previous?.merge ? { merge: previous.merge } : {}),
    usage,
  };
}
