/**
 * `apb refine --dry-run` calls nothing and writes nothing, and its token estimate is within 20 % of
 * what the fake server then reports for the same refinement (input, output and total; with the
 * source's LLM judge the judge's short verdicts make the output estimate high, the total still holds).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, readManifest, tempDir } from '../engine/helpers.js';
import { MODELS, sourceArgs, useRefineServer } from './script.js';

const fake = useRefineServer();
const totals = (stdout: string) => {
  const cells = stdout
    .split('\n')
    .find((line) => line.startsWith('total'))!
    .split(/\s{2,}/);
  return {
    input: Number(cells[5]!.replace(/,/g, '')),
    output: Number(cells[6]!.replace(/,/g, '')),
    calls: cells.slice(2, 5).map(Number),
  };
};
const within = (estimate: number, actual: number) => Math.abs(estimate - actual) / actual;

describe('apb refine --dry-run', () => {
  it('estimates the critique, revision and judge calls and their tokens within 20 % of a fake-server run', async () => {
    const url = fake.server.baseUrl('openai');
    const source = path.join(tempDir('apb-refine-dry-'), 'source');
    expect((await cli(sourceArgs(url, source))).code).toBe(0);
    const critic = [
      '--mode',
      'critic',
      '--critic',
      `openai-compatible:${MODELS.critic}`,
      '--critic-base-url',
      url,
      '--no-cache',
    ];
    const figures: string[] = [];
    for (const judge of [[], ['--judge', 'rules']]) {
      fake.server.reset();
      const out = path.join(tempDir('apb-refine-dry-'), 'refined');
      const dry = await cli(['refine', source, ...critic, ...judge, '--out', out, '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(fake.server.count()).toBe(0);
      expect(existsSync(out)).toBe(false);
      const estimate = totals(dry.stdout);
      expect(estimate.calls).toEqual([12, 12, judge.length > 0 ? 0 : 12]);
      expect((await cli(['refine', source, ...critic, ...judge, '--out', out])).code).toBe(0);
      const usage = readManifest(out).usage;
      const actual = {
        input: usage.planner.input_tokens + usage.critic.input_tokens + usage.judge.input_tokens,
        output:
          usage.planner.output_tokens + usage.critic.output_tokens + usage.judge.output_tokens,
      };
      expect(within(estimate.input, actual.input)).toBeLessThan(0.2);
      expect(within(estimate.input + estimate.output, actual.input + actual.output)).toBeLessThan(
        0.2,
      );
      if (judge.length > 0) expect(within(estimate.output, actual.output)).toBeLessThan(0.2);
      const ratio = (a: number, b: number) => (a / b).toFixed(3);
      figures.push(
        `${judge.length ? 'rules judge' : 'LLM judge'}: input ${estimate.input}/${actual.input} = ${ratio(estimate.input, actual.input)}, output ${estimate.output}/${actual.output} = ${ratio(estimate.output, actual.output)}, total ${ratio(estimate.input + estimate.output, actual.input + actual.output)}`,
      );
    }
    console.info(`dry-run estimate / fake-server usage — ${figures.join('; ')}`);
  }, 120_000);
});
