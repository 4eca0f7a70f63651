/**
 * How `apb run`'s flags and config become each model's entry: the run-wide sampling flags and
 * base URL fill what an entry leaves out, a vendor's base-URL variable fills a missing endpoint,
 * every model is named once, and `--shard auto` asks the scheduler (run-options.ts uses these).
 */
import { UsageError } from '../errors.js';
import type { ModelEntry } from '../pipeline/run-spec.js';
import { formatShard, shardFromScheduler } from '../pipeline/shard.js';
import { parseModelSpec } from '../providers/model-spec.js';
import { vendorBaseUrl } from '../providers/vendor-access.js';
import { say } from './terminal.js';

/** The model options a flag sets for every model entry that leaves them out. */
const RUN_WIDE = ['temperature', 'maxTokens', 'seed', 'reasoningEffort', 'thinkingBudget'] as const;

/** The sampling flags fill what a model entry leaves out; a single --base-url goes to every model that calls an endpoint. */
export function withRunWideOptions(
  models: ModelEntry[],
  flags: Pick<ModelEntry, (typeof RUN_WIDE)[number]> & { baseUrl?: string | string[] | undefined },
): ModelEntry[] {
  const endpointModels = models.filter((entry) => !entry.spec.startsWith('baseline:'));
  if (flags.baseUrl && models.length > 1) {
    const providers = new Set(
      endpointModels.filter((entry) => !entry.baseUrl).map((entry) => providerOf(entry.spec)),
    );
    if (providers.size > 1)
      throw new UsageError(
        `--base-url ${flags.baseUrl} would apply to models of ${providers.size} providers (${[...providers].join(', ')}): give each model its own base URL in a --config file`,
      );
  }
  return models.map((entry) => {
    const filled: ModelEntry = { ...entry };
    if (entry.baseUrl === undefined && flags.baseUrl && !entry.spec.startsWith('baseline:'))
      filled.baseUrl = flags.baseUrl;
    for (const key of RUN_WIDE)
      if (entry[key] === undefined && flags[key] !== undefined)
        (filled as Record<string, unknown>)[key] = flags[key];
    return filled;
  });
}

function providerOf(spec: string): string {
  try {
    return parseModelSpec(spec).provider;
  } catch {
    return spec;
  }
}

/** Every tested model is named once: two entries of one spec would be one row of the leaderboard. */
export function assertDistinct(models: readonly ModelEntry[]): void {
  const seen = new Set<string>();
  for (const entry of models) {
    if (seen.has(entry.spec))
      throw new UsageError(
        `model ${entry.spec} is given twice: each tested model runs once per command`,
      );
    seen.add(entry.spec);
  }
}

/**
 * Models with no base URL take their vendor's own variable (`OPENAI_BASE_URL`, …) when it is set,
 * so the manifest names the endpoint actually called, as a proxy or gateway user expects.
 */
export function withVendorBaseUrls(models: ModelEntry[], env: NodeJS.ProcessEnv): ModelEntry[] {
  return models.map((entry) => {
    if (entry.baseUrl !== undefined || entry.spec.startsWith('baseline:')) return entry;
    const fromEnv = vendorBaseUrl(entry.spec, env);
    return fromEnv ? { ...entry, baseUrl: fromEnv.url } : entry;
  });
}

/** One line per spec whose endpoint comes from a vendor's base-URL variable, for the run's output. */
export function environmentEndpointLines(
  specs: readonly (string | undefined)[],
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  return [...new Set(specs.filter((spec): spec is string => Boolean(spec)))].flatMap((spec) => {
    const fromEnv = vendorBaseUrl(spec, env);
    return fromEnv ? [`apb: ${spec} is called at ${fromEnv.url} (from ${fromEnv.variable})`] : [];
  });
}

/** `--shard auto`: the scheduler's shard, said on stderr (which variables gave it). */
export function autoShard(
  env: Readonly<Record<string, string | undefined>>,
  shards: number | undefined,
): { index: number; count: number } {
  try {
    const found = shardFromScheduler(env, shards);
    say(`apb: --shard auto: shard ${formatShard(found.shard)} from ${found.source}`);
    return found.shard;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
