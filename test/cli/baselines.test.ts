/** The baselines on the built-in sample, through the real CLI: the oracle is a ceiling, refuse a floor. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPLITS } from '../../src/dataset/case.js';
import { runCli } from '../helpers/cli.js';

async function groupsOf(model: string): Promise<Record<string, { records: number; accuracy: number }>> {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-baseline-')), 'run');
  const result = await runCli(['run', '--model', model, '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8')).groups;
}

describe('baselines under the rules judge, on the sample', () => {
  it('baseline:oracle is 100 % correct on every split', async () => {
    const groups = await groupsOf('baseline:oracle');
    for (const split of SPLITS) expect(groups[split], split).toMatchObject({ accuracy: 1 });
  });

  it('baseline:refuse is 100 % correct on unsolvable and 0 % everywhere else', async () => {
    const groups = await groupsOf('baseline:refuse');
    for (const split of SPLITS) expect(groups[split]!.accuracy, split).toBe(split === 'holistic_unsolvable' ? 1 : 0);
  });
});
