/** Model and judge specs → the planner and judge of a run (baselines, providers, rules, LLM judges). */
import { BASELINES } from '../baselines/index.js';
import { UsageError } from '../errors.js';
import type { Judge } from '../judge/judge.js';
import { createLlmJudge } from '../judge/llm-judge.js';
import { createPanelJudge } from '../judge/panel.js';
import { rulesJudge } from '../judge/rules-judge.js';
import { baselinePlanner, providerPlanner, type Planner } from '../pipeline/planner.js';
import type { SamplingParams } from '../providers/provider.js';
import type { RunProviders, StackOverrides } from './run-providers.js';

/** `baseline:NAME` → the named baseline; `PROVIDER:MODEL` → a model behind the run's provider stack. */
export function resolvePlanner(spec: string, providers: RunProviders, options: { baseUrl: string | readonly string[] | null; sampling: SamplingParams; json: boolean; overrides?: StackOverrides }): Planner {
  if (spec.startsWith('baseline:')) {
    const name = spec.slice('baseline:'.length);
    const baseline = (BASELINES as Record<string, (typeof BASELINES)[keyof typeof BASELINES]>)[name];
    if (!baseline) throw new UsageError(`unknown baseline "${name}" (known: ${Object.keys(BASELINES).map((key) => `baseline:${key}`).join(', ')})`);
    return baselinePlanner(name, baseline);
  }
  if (spec === 'rules') throw new UsageError('"rules" is a judge, not a planner: use it with --judge');
  return providerPlanner(providers.provider(spec, options.baseUrl, options.overrides), options.sampling, options.json);
}

/** How every LLM judge of a run is set up. */
export interface JudgeResolveOptions {
  baseUrl: string | readonly string[] | null;
  protocol: 'paper' | 'official';
  /** The paper's Table 7 ablation; refused with `rules`, which always compares with the reference. */
  blind: boolean;
}

function resolveOneJudge(spec: string, providers: RunProviders, options: JudgeResolveOptions): Judge {
  if (spec === 'rules') {
    if (options.blind) throw new UsageError('--judge-blind cannot apply to the rules judge: it always compares the answer with the reference (use only LLM judges)');
    return rulesJudge;
  }
  if (spec.startsWith('baseline:')) throw new UsageError(`"${spec}" is a planner, not a judge`);
  return createLlmJudge({ provider: providers.provider(spec, options.baseUrl), protocol: options.protocol, blind: options.blind });
}

/** `rules` → the structural judge; `PROVIDER:MODEL` → an LLM judge; several specs → a panel of them (`panel(A+B)`). */
export function resolveJudge(specs: string[], providers: RunProviders, options: JudgeResolveOptions): Judge {
  if (specs.length === 0) throw new UsageError('no judge given: use --judge rules or --judge PROVIDER:MODEL');
  const duplicate = specs.find((spec, index) => specs.indexOf(spec) !== index);
  if (duplicate !== undefined) throw new UsageError(`--judge ${duplicate} is given twice`);
  const members = specs.map((spec) => resolveOneJudge(spec, providers, options));
  return members.length === 1 ? members[0]! : createPanelJudge(members);
}
