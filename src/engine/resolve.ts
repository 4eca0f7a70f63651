/** Model and judge specs → the planner and judge of a run (baselines, providers, rules, LLM judges). */
import { BASELINES } from '../baselines/index.js';
import { canonicalJson } from '../canonical-json.js';
import { UsageError } from '../errors.js';
import type { Judge } from '../judge/judge.js';
import { createLlmJudge } from '../judge/llm-judge.js';
import { createPanelJudge } from '../judge/panel.js';
import { rulesJudge } from '../judge/rules-judge.js';
import {
  baselinePlanner,
  codePlanner,
  providerPlanner,
  type Planner,
} from '../pipeline/planner.js';
import { CODE_FORMS, isCodeSpec } from '../providers/code/spec.js';
import { didYouMean } from '../did-you-mean.js';
import { isProviderId, PROVIDERS } from '../providers/model-spec.js';
import type { SamplingParams } from '../providers/provider.js';
import type { RunProviders, StackOverrides } from './providers.js';

const BASELINE_SPECS = Object.keys(BASELINES).map((name) => `baseline:${name}`);

/**
 * A spec that names no provider (`rule`, `heuristic`, `opnai:gpt-4o`) is refused with the nearest
 * valid spec or provider; what the role takes is listed either way.
 */
function assertKnownProvider(spec: string, role: 'planner' | 'judge'): void {
  const colon = spec.indexOf(':');
  const provider = colon < 0 ? spec : spec.slice(0, colon);
  if (isProviderId(provider) || provider === 'baseline' || (role === 'judge' && spec === 'rules'))
    return;
  if ((CODE_FORMS as readonly string[]).includes(provider)) return;
  const whole = role === 'judge' ? ['rules'] : BASELINE_SPECS;
  const providers = [
    ...Object.keys(PROVIDERS),
    ...CODE_FORMS,
    ...(role === 'planner' ? ['baseline'] : []),
  ];
  const suffixed =
    colon < 0 ? whole.find((candidate) => candidate.endsWith(`:${spec}`)) : undefined;
  const hint = suffixed
    ? ` (did you mean "${suffixed}"?)`
    : colon < 0
      ? didYouMean(spec, whole) || didYouMean(spec, providers)
      : didYouMean(provider, providers).replace(/"([^"]+)"/, `"$1${spec.slice(colon)}"`);
  const takes =
    role === 'judge'
      ? 'rules, PROVIDER:MODEL or module:PATH|cmd:COMMAND|http:URL'
      : 'PROVIDER:MODEL, module:PATH|cmd:COMMAND|http:URL or baseline:heuristic|oracle|refuse';
  throw new UsageError(
    `--${role === 'judge' ? 'judge' : 'model'} ${spec}: not a known spec${hint}; expected ${takes}, PROVIDER one of ${Object.keys(PROVIDERS).join(', ')}`,
  );
}

/** `baseline:NAME` → the named baseline; `PROVIDER:MODEL` or a planner as code → behind the run's provider stack. */
export function resolvePlanner(
  spec: string,
  providers: RunProviders,
  options: {
    baseUrl: string | readonly string[] | null;
    sampling: SamplingParams;
    json: boolean;
    overrides?: StackOverrides;
  },
): Planner {
  if (spec.startsWith('baseline:')) {
    const name = spec.slice('baseline:'.length);
    const baseline = (BASELINES as Record<string, (typeof BASELINES)[keyof typeof BASELINES]>)[
      name
    ];
    if (!baseline)
      throw new UsageError(
        `unknown baseline "${name}"${didYouMean(spec, BASELINE_SPECS)} (known: ${BASELINE_SPECS.join(', ')})`,
      );
    return baselinePlanner(name, baseline);
  }
  if (spec === 'rules')
    throw new UsageError('"rules" is a judge, not a planner: use it with --judge');
  assertKnownProvider(spec, 'planner');
  if (isCodeSpec(spec))
    return codePlanner(
      providers.provider(spec, null, options.overrides),
      options.sampling,
      options.json,
    );
  return providerPlanner(
    providers.provider(spec, options.baseUrl, options.overrides),
    options.sampling,
    options.json,
  );
}

/** How every LLM judge of a run is set up. */
export interface JudgeResolveOptions {
  baseUrl: string | readonly string[] | null;
  protocol: 'paper' | 'official';
  /** The paper's Table 7 ablation; refused with `rules`, which always compares with the reference. */
  blind: boolean;
  /** `--judge-max-tokens`, `--judge-seed`, …: every LLM judge's options (temperature stays 0). */
  sampling?: JudgeSamplingFlags;
}

/** The judge options a user can set, as the run spec holds them. */
export interface JudgeSamplingFlags {
  maxTokens?: number | undefined;
  seed?: number | undefined;
  reasoningEffort?: SamplingParams['reasoningEffort'];
  thinkingBudget?: number | undefined;
}

/** The judge flags as sampling parameters (what the judge's requests carry). */
export function judgeSamplingParams(
  flags: JudgeSamplingFlags | undefined,
): Omit<SamplingParams, 'temperature'> {
  if (!flags) return {};
  return {
    ...(flags.maxTokens !== undefined ? { maxOutputTokens: flags.maxTokens } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.reasoningEffort !== undefined ? { reasoningEffort: flags.reasoningEffort } : {}),
    ...(flags.thinkingBudget !== undefined ? { thinkingBudget: flags.thinkingBudget } : {}),
  };
}

function resolveOneJudge(
  spec: string,
  providers: RunProviders,
  options: JudgeResolveOptions,
): Judge {
  if (spec === 'rules') {
    if (options.blind)
      throw new UsageError(
        '--judge-blind cannot apply to the rules judge: it always compares the answer with the reference (use only LLM judges)',
      );
    return rulesJudge;
  }
  if (spec.startsWith('baseline:')) throw new UsageError(`"${spec}" is a planner, not a judge`);
  assertKnownProvider(spec, 'judge');
  const sampling = judgeSamplingParams(options.sampling);
  const judge = createLlmJudge({
    provider: providers.provider(spec, options.baseUrl),
    protocol: options.protocol,
    blind: options.blind,
    sampling,
    jsonDepth: providers.limits.jsonDepth,
  });
  // The options are part of the judge's version: recorded in the manifest, and a resume with others is refused.
  return Object.keys(sampling).length === 0
    ? judge
    : { ...judge, version: `${judge.version} ${canonicalJson(sampling)}` };
}

/** `rules` → the structural judge; `PROVIDER:MODEL` → an LLM judge; several specs → a panel of them (`panel(A+B)`). */
export function resolveJudge(
  specs: string[],
  providers: RunProviders,
  options: JudgeResolveOptions,
): Judge {
  if (specs.length === 0)
    throw new UsageError('no judge given: use --judge rules or --judge PROVIDER:MODEL');
  const duplicate = specs.find((spec, index) => specs.indexOf(spec) !== index);
  if (duplicate !== undefined) throw new UsageError(`--judge ${duplicate} is given twice`);
  const members = specs.map((spec) => resolveOneJudge(spec, providers, options));
  return members.length === 1 ? members[0]! : createPanelJudge(members);
}
