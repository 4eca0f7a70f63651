/** Model and judge specs → the objects a run needs (baselines, providers, judges). */
import { BASELINES } from '../baselines/index.js';
import { UsageError } from '../errors.js';
import type { Judge } from '../judge/judge.js';
import { rulesJudge } from '../judge/rules-judge.js';
import { baselinePlanner, type Planner } from '../pipeline/planner.js';

/** `baseline:NAME` → the named baseline planner. */
export function resolvePlanner(spec: string): Planner {
  const [provider, ...rest] = spec.split(':');
  const name = rest.join(':');
  if (provider === 'baseline') {
    const baseline = (BASELINES as Record<string, (typeof BASELINES)[keyof typeof BASELINES]>)[name];
    if (!baseline) throw new UsageError(`unknown baseline "${name}" (known: ${Object.keys(BASELINES).map((key) => `baseline:${key}`).join(', ')})`);
    return baselinePlanner(name, baseline);
  }
  throw new UsageError(`model "${spec}": providers are not wired into this build yet`);
}

/** `rules` → the structural rules judge. */
export function resolveJudge(specs: string[]): Judge {
  if (specs.length === 1 && specs[0] === 'rules') return rulesJudge;
  throw new UsageError(`judge "${specs.join(', ')}": only "rules" is wired into this build yet`);
}
