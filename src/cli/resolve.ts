/** Model and judge specs → the planner and judge of a run (baselines, providers, rules, LLM judges). */
import { BASELINES } from '../baselines/index.js';
import { UsageError } from '../errors.js';
import type { Judge } from '../judge/judge.js';
import { createLlmJudge } from '../judge/llm-judge.js';
import { rulesJudge } from '../judge/rules-judge.js';
import { baselinePlanner, providerPlanner, type Planner } from '../pipeline/planner.js';
import type { SamplingParams } from '../providers/provider.js';
import type { RunProviders } from './run-providers.js';

/** `baseline:NAME` → the named baseline; `PROVIDER:MODEL` → a model behind the run's provider stack. */
export function resolvePlanner(spec: string, providers: RunProviders, options: { baseUrl: string | null; sampling: SamplingParams; json: boolean }): Planner {
  if (spec.startsWith('baseline:')) {
    const name = spec.slice('baseline:'.length);
    const baseline = (BASELINES as Record<string, (typeof BASELINES)[keyof typeof BASELINES]>)[name];
    if (!baseline) throw new UsageError(`unknown baseline "${name}" (known: ${Object.keys(BASELINES).map((key) => `baseline:${key}`).join(', ')})`);
    return baselinePlanner(name, baseline);
  }
  if (spec === 'rules') throw new UsageError('"rules" is a judge, not a planner: use it with --judge');
  return providerPlanner(providers.provider(spec, options.baseUrl), options.sampling, options.json);
}

/** `rules` → the structural judge; `PROVIDER:MODEL` → an LLM judge to the paper's protocol. */
export function resolveJudge(specs: string[], providers: RunProviders, options: { baseUrl: string | null; protocol: 'paper' | 'official'; blind: boolean }): Judge {
  if (specs.length !== 1) throw new UsageError('several judges in one run are not supported yet: give one --judge');
  const [spec] = specs as [string];
  if (spec === 'rules') return rulesJudge;
  if (spec.startsWith('baseline:')) throw new UsageError(`"${spec}" is a planner, not a judge`);
  return createLlmJudge({ provider: providers.provider(spec, options.baseUrl), protocol: options.protocol, blind: options.blind });
}
