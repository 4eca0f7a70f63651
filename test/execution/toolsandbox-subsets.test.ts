import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { loadScenarios } from '../../src/execution/environments/toolsandbox/scenarios.js';
import {
  selectScenarios,
  table3SubsetFile,
} from '../../src/execution/environments/toolsandbox/subsets.js';

const { scenarios } = loadScenarios();

describe('ToolSandbox scenario selection', () => {
  it('offline is the 728 that need no RapidAPI tool; all is 1,032', () => {
    expect(selectScenarios(scenarios, { subset: 'offline' })).toHaveLength(728);
    expect(selectScenarios(scenarios, { subset: 'all' })).toHaveLength(1032);
  });
  it('the shipped Table 3 subset is 200 offline scenarios covering every offline base', () => {
    const chosen = selectScenarios(scenarios, { subset: { file: table3SubsetFile() } });
    expect(chosen).toHaveLength(200);
    expect(chosen.every((s) => !s.requiresNetwork)).toBe(true);
    expect(new Set(chosen.map((s) => s.base)).size).toBe(91);
  });
  it('filters by base scenario and variant', () => {
    const chosen = selectScenarios(scenarios, {
      subset: 'all',
      scenarios: ['cellular_off'],
      variants: ['base', 'all_tools'],
    });
    expect(chosen.map((s) => s.name)).toEqual(['cellular_off', 'cellular_off_all_tools']);
  });
  it('names the file and line of an unknown scenario, and refuses unknown variants', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ts-subset-')), 'subset.txt');
    writeFileSync(file, 'cellular_off\n# comment\nno_such_scenario\n');
    expect(() => selectScenarios(scenarios, { subset: { file } })).toThrow(InputError);
    expect(() => selectScenarios(scenarios, { subset: { file } })).toThrow(/subset\.txt:3/);
    expect(() => selectScenarios(scenarios, { subset: 'all', variants: ['5_tools'] })).toThrow(
      InputError,
    );
  });
});
