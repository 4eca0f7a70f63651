/** Model and judge specs → the planner and judge of a run (baselines, providers, rules, LLM judges). */
import { BASELINES } from '../baselines/index.js';
import { UsageError } from '../errors.js';
import type { Judge } from '../judge/judge.js';
import { createLlmJudge } from '../judge/llm-judge.js';
import { createPanelJudge } from '../judge/panel.js';
import { rulesJudge } from '../judge/rules-judge.js';
import { baselinePlanner, providerPlanner, type Planner } from '../pipeline/planner.js';
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
  const whole = role === 'judge' ? ['rules'] : BASELINE_SPECS;
  const providers = [...Object.keys(PROVIDERS), ...(role === 'planner' ? ['baseline'] : [])];
  const suffixed =
    colon < 0 ? whole.find((candidate) => candidate.endsWith(`:${spec}`)) : undefined;
  const hint = suffixed
    ? ` (did you mean "${suffixed}"?)`
    : colon < 0
      ? didYouMean(spec, whole) || didYouMean(spec, providers)
      : didYouMean(provider, providers).replace(/"([^"]+)"/, `"$1${spec.slice(colon)}"`);
  const takes =
    role === 'judge'
      ? 'rules or PROVIDER:MODEL'
      : 'PROVIDER:MODEL or baseline:heuristic|oracle|refuse';
  throw new UsageError(
    `--${role === 'judge' ? 'judge' : 'model'} ${spec}: not a known spec${hint}; expected ${takes}, PROVIDER one of ${Object.keys(PROVIDERS).join(', ')}`,
  );
}

/** `baseline:NAME` → the named baseline; `PROVIDER:MODEL` → a model behind the run's provider stack. */
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
  return createLlmJudge({
    provider: providers.provider(spec, options.baseUrl),
    protocol: options.protocol,
    blind: options.blind,
  });
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
