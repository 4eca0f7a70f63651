/**
 * Choosing scenarios: `--subset offline|all|FILE` (a file names one scenario a line; `#` starts
 * a comment), `--scenarios NAME,...` (base names: all their variants) and `--variants LIST`.
 * The shipped `data/toolsandbox/subset-200.txt` is the 200 apb runs for Table 3 (how it was
 * chosen: scripts/toolsandbox/make_subset.py).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../../errors.js';
import { VARIANTS, type Scenario, type Variant } from './scenarios.js';

/** The shipped Table 3 subset. */
export function table3SubsetFile(): string {
  return fileURLToPath(new URL('../../../../data/toolsandbox/subset-200.txt', import.meta.url));
}

/** What to run. */
export interface ScenarioSelection {
  subset: 'offline' | 'all' | { file: string };
  scenarios?: string[];
  variants?: string[];
}

function readSubset(file: string, known: ReadonlySet<string>): Set<string> {
  const names = new Set<string>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const name = raw.replace(/#.*/, '').trim();
      if (name === '') return;
      if (!known.has(name))
        throw new InputError([
          { file, line: i + 1, field: 'scenario', message: `unknown scenario ${name}` },
        ]);
      names.add(name);
    });
  return names;
}

/** The selected scenarios in file order; an unknown name is an InputError. */
export function selectScenarios(
  all: readonly Scenario[],
  selection: ScenarioSelection,
): Scenario[] {
  const known = new Set(all.map((s) => s.name));
  let chosen = all.filter((s) => selection.subset === 'all' || !s.requiresNetwork);
  if (typeof selection.subset === 'object') {
    const names = readSubset(selection.subset.file, known);
    chosen = all.filter((s) => names.has(s.name));
  }
  if (selection.scenarios) {
    const bases = new Set(all.map((s) => s.base));
    for (const name of selection.scenarios)
      if (!bases.has(name))
        throw new InputError([
          {
            file: '--scenarios',
            line: 1,
            field: 'scenarios',
            message: `unknown base scenario ${name}`,
          },
        ]);
    chosen = chosen.filter((s) => selection.scenarios!.includes(s.base));
  }
  if (selection.variants) {
    for (const v of selection.variants)
      if (!VARIANTS.includes(v as Variant))
        throw new InputError([
          {
            file: '--variants',
            line: 1,
            field: 'variants',
            message: `unknown variant ${v} (one of ${VARIANTS.join(', ')})`,
          },
        ]);
    chosen = chosen.filter((s) => selection.variants!.includes(s.variant));
  }
  return chosen;
}
