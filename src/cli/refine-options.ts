/**
 * `apb refine`'s flags and how they become a refinement: the selection, the mode and its critic,
 * and the source run's setup and models, from the flags and the run's manifest (the flags win).
 */
import { judgeSamplingOf, modelFlagsOf } from './model-flags.js';
import { UsageError } from '../errors.js';
import type { RefineSetup } from '../pipeline/records.js';
import type { RefinementSpec } from '../engine/refine.js';
import type { JudgeSamplingFlags } from '../engine/resolve.js';
import type { Limits } from '../limits.js';
import { loadRefineSource, type RefineSelection } from '../pipeline/refine-source.js';
import { parseSplits } from '../pipeline/run-spec.js';
import { REFINE_PROMPT_VERSION } from '../refine/refine-prompts.js';
import { sampleFromFlags } from '../refine/sample.js';
import type { EngineFlags } from './options.js';

/** The flags of `apb refine`, as commander hands them over. */
export interface RefineOptions extends EngineFlags {
  mode?: string;
  critic?: string;
  criticBaseUrl?: string;
  metric: boolean;
  rounds: number;
  splits?: string;
  ids?: string[];
  limit?: number;
  horizons?: string[];
  sample?: string;
  samplePerSource?: number;
  samplePerSubset?: string[];
  seed: string;
  judge?: string[];
  judgeBaseUrl?: string;
  baseUrl?: string;
  out?: string;
  data?: string;
  maxCost?: number;
  retryErrors: boolean;
  dryRun: boolean;
  quiet: boolean;
  json: boolean;
}

/** The selection flags → a `RefineSelection`; a malformed value is a usage error naming the flag. */
function selectionOf(options: RefineOptions): RefineSelection {
  const selection: RefineSelection = {};
  if (options.splits) selection.splits = parseSplits(options.splits);
  if (options.ids) selection.ids = new Set(options.ids);
  if (options.limit) selection.limitPerSplit = options.limit;
  if (options.horizons) {
    const horizons = options.horizons.map(Number);
    if (horizons.some((value) => ![1, 2, 3].includes(value)))
      throw new UsageError(`--horizons takes 1, 2 and 3 (got "${options.horizons.join(',')}")`);
    selection.horizons = horizons;
  }
  const sample = sampleFromFlags(options);
  if (sample) selection.sample = sample;
  return selection;
}

/** `--mode`, checked against `--critic` and the critic's options. */
function modeOf(options: RefineOptions): 'self' | 'critic' {
  if (options.mode !== 'self' && options.mode !== 'critic')
    throw new UsageError(
      `--mode must be self or critic${options.mode ? ` (got "${options.mode}")` : ''}`,
    );
  if (options.mode === 'critic' && !options.critic)
    throw new UsageError('--mode critic needs --critic SPEC (the model that writes the critiques)');
  if (options.mode === 'self' && options.critic)
    throw new UsageError(
      '--critic goes with --mode critic; in self mode the tested model critiques its own answers',
    );
  if (options.mode === 'self' && Object.keys(modelFlagsOf(options, 'critic-')).length > 0)
    throw new UsageError(
      "--critic-… options go with --mode critic; in self mode the critic is the tested model, with the run's own options",
    );
  if (options.critic?.startsWith('baseline:') || options.critic === 'rules')
    throw new UsageError(`--critic must be a model (PROVIDER:MODEL), not ${options.critic}`);
  return options.mode;
}

export type Refinement = Omit<RefinementSpec, 'engine' | 'maxCost' | 'outDir'>;

/** The source run, its selection and the refinement's setup and models, from the flags and the run's manifest. */
export async function refinementOf(
  runDir: string,
  options: RefineOptions,
  limits: Limits,
): Promise<Refinement> {
  const mode = modeOf(options);
  if (!options.out && !options.dryRun)
    throw new UsageError(
      'apb refine needs --out DIR: the refined answers go into a run directory of their own (RUN_DIR is never written)',
    );
  const selection = selectionOf(options);
  const source = await loadRefineSource(runDir, options.data ?? null, selection, limits);
  const identity = source.manifest.identity;
  const testedModel = identity.tested_model;
  if (testedModel.startsWith('baseline:'))
    throw new UsageError(
      `${source.dir} was answered by ${testedModel}, a baseline: only a model can revise its answers`,
    );
  const baseUrl = options.baseUrl ?? identity.base_url ?? process.env.APB_BASE_URL ?? null;
  const judgeBaseUrl =
    options.judgeBaseUrl ??
    (options.judge ? process.env.APB_JUDGE_BASE_URL : identity.judge_base_url) ??
    null;
  const criticBaseUrl = mode === 'self' ? baseUrl : (options.criticBaseUrl ?? null);
  const setup: RefineSetup = {
    mode,
    taxonomy: options.metric,
    critic: mode === 'self' ? testedModel : options.critic!,
    critic_base_url: criticBaseUrl,
    critic_sampling:
      mode === 'self' ? identity.sampling : { temperature: 0, ...modelFlagsOf(options, 'critic-') },
    rounds: options.rounds,
    prompt_version: REFINE_PROMPT_VERSION,
  };
  return {
    source,
    selection,
    setup,
    retryErrors: options.retryErrors,
    testedModel,
    baseUrl,
    criticBaseUrl,
    judges: options.judge ?? identity.judges,
    judgeBaseUrl,
    protocol: identity.protocol,
    judgeBlind: identity.judge_blind,
    judgeSampling: judgeSamplingOf(
      options as unknown as Record<string, unknown>,
    ) as JudgeSamplingFlags | null,
  };
}
