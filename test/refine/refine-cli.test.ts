/**
 * `apb refine` end to end over real HTTP with the scripted fake: all four methods (self / critic ×
 * with / without the taxonomy) on holistic and step-wise cases produce refined, judged lines, and
 * the Table 4 built from them equals the count made by hand from the script's policy.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, readJsonl, readManifest, tempDir } from '../engine/helpers.js';
import {
  INITIALLY_WRONG,
  kindOf,
  MODELS,
  sourceArgs,
  useRefineServer,
  type Tag,
} from './script.js';

const fake = useRefineServer();
const url = () => fake.server.baseUrl('openai');

const METHODS: Record<Tag, string[]> = {
  'self+': ['--mode', 'self'],
  'self-': ['--mode', 'self', '--no-metric'],
  'critic+': ['--mode', 'critic', '--critic', `openai-compatible:${MODELS.critic}`],
  'critic-': ['--mode', 'critic', '--critic', `openai-compatible:${MODELS.critic}`, '--no-metric'],
};
const criticUrl = (tag: Tag) => (tag.startsWith('critic') ? ['--critic-base-url', url()] : []);

/**
 * Table 4 by hand (positions 0–5 of each split; INITIALLY_WRONG = 0 and 3, so base = 4/6 = 66.67 %):
 *   self+   fixes 0, 3, breaks 1 → refined 5/6 = 83.33, flips +2 / −1, p = 2·(1+3)/8 = 1
 *   critic+ fixes 0, 3          → refined 6/6 = 100,   flips +2 / −0, p = 2·1/4 = 0.5
 *   self−   fixes 0, breaks 1, 2 → refined 3/6 = 50,   flips +1 / −2, p = 2·(1+3)/8 = 1
 *   critic− fixes 3             → refined 5/6 = 83.33, flips +1 / −0, p = 2·1/2 = 1
 */
const EXPECTED: Record<
  Tag,
  { refined: number; to_correct: number; to_incorrect: number; p: number }
> = {
  'self+': { refined: 500 / 6, to_correct: 2, to_incorrect: 1, p: 1 },
  'critic+': { refined: 100, to_correct: 2, to_incorrect: 0, p: 0.5 },
  'self-': { refined: 50, to_correct: 1, to_incorrect: 2, p: 1 },
  'critic-': { refined: 500 / 6, to_correct: 1, to_incorrect: 0, p: 1 },
};

describe('apb refine over real HTTP', () => {
  let source = '';
  let sourceBytes: Record<string, string> = {};
  beforeAll(async () => {
    source = path.join(tempDir('apb-refine-'), 'source');
  });

  it('refines with all four methods on holistic and step-wise cases; Table 4 equals the hand count', async () => {
    const run = await cli(sourceArgs(url(), source));
    expect(run.code, run.stderr).toBe(0);
    sourceBytes = Object.fromEntries(
      ['manifest.json', 'predictions.jsonl', 'judgements.jsonl', 'scores.json'].map((name) => [
        name,
        readFileSync(path.join(source, name), 'utf8'),
      ]),
    );
    for (const tag of Object.keys(METHODS) as Tag[]) {
      fake.server.reset();
      const out = path.join(tempDir('apb-refine-'), tag);
      const json = tag === 'critic+' ? ['--json'] : [];
      const result = await cli([
        'refine',
        source,
        ...METHODS[tag],
        ...criticUrl(tag),
        '--out',
        out,
        '--no-cache',
        '--concurrency',
        '3',
        ...json,
      ]);
      expect(result.code, result.stderr).toBe(0);
      // 12 answers: one critique and one revision each, no planner call, no judge call (the source's verdicts are reused).
      const kinds = fake.server.requests.map(kindOf);
      expect(kinds.filter((kind) => kind === 'critique')).toHaveLength(12);
      expect(kinds.filter((kind) => kind === 'revision')).toHaveLength(12);
      expect(kinds.filter((kind) => kind === 'planner')).toHaveLength(0);
      expect(kinds.filter((kind) => kind === 'judge')).toHaveLength(12);
      const critiques = fake.server.requests.filter((request) => kindOf(request) === 'critique');
      expect(new Set(critiques.map((request) => request.parsed?.model))).toEqual(
        new Set([tag.startsWith('critic') ? MODELS.critic : MODELS.planner]),
      );

      const judgements = readJsonl(path.join(out, 'judgements.jsonl'));
      expect(judgements).toHaveLength(12);
      for (const line of judgements) {
        expect(line.apb.refinement).toMatchObject({
          mode: tag.slice(0, -1),
          taxonomy: tag.endsWith('+'),
          round: 1,
          rounds: 1,
          status: 'ok',
          source_run: { dir: source },
        });
        expect(line.apb.refinement.critiques[0].text).toContain(`METHOD=${tag}`);
        expect(line.apb.refinement.initial).toMatchObject({
          judged_in: 'source',
          judge: `openai-compatible:${MODELS.judge}`,
        });
        expect(line.apb.prediction.refinement).toBeUndefined();
        expect(line.judge_model).toBe(`openai-compatible:${MODELS.judge}`);
      }
      const table4 = JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8')).tables.table4;
      // The six step-wise cases hold every horizon: step-wise rows are per horizon, never pooled.
      expect(table4.map((row: any) => row.regime)).toEqual([
        'holistic',
        'step_wise_next1',
        'step_wise_next2',
        'step_wise_next3',
      ]);
      const stepWise = table4.slice(1);
      const total = (get: (row: any) => number) =>
        stepWise.reduce((sum: number, row: any) => sum + get(row), 0);
      expect(total((row) => row.n)).toBe(6);
      // Over the three horizon rows, the same cases and flips as the holistic row (same script).
      expect(total((row) => row.flips.to_correct)).toBe(EXPECTED[tag].to_correct);
      expect(total((row) => row.flips.to_incorrect)).toBe(EXPECTED[tag].to_incorrect);
      expect(total((row) => (row.refined_cr * row.n) / 100)).toBeCloseTo(
        (EXPECTED[tag].refined * 6) / 100,
        10,
      );
      for (const row of table4.slice(0, 1)) {
        const expected = EXPECTED[tag];
        expect(row).toMatchObject({
          model: `openai-compatible:${MODELS.planner}`,
          mode: tag.slice(0, -1),
          taxonomy: tag.endsWith('+'),
          n: 6,
          flips: { to_correct: expected.to_correct, to_incorrect: expected.to_incorrect },
          failed: 0,
        });
        expect(row.base_cr).toBeCloseTo((100 * (6 - INITIALLY_WRONG.length)) / 6, 10);
        expect(row.refined_cr).toBeCloseTo(expected.refined, 10);
        expect(row.delta).toBeCloseTo(expected.refined - 400 / 6, 10);
        expect(row.p_value).toBeCloseTo(expected.p, 12);
      }
      const manifest = readManifest(out);
      expect(manifest).toMatchObject({
        status: 'complete',
        identity: { refinement: { mode: tag.slice(0, -1), taxonomy: tag.endsWith('+') } },
        source_run: { dir: source },
      });
      expect(manifest.usage.critic.calls).toBe(12);
      expect(manifest.usage.planner.calls).toBe(12);
      if (json.length > 0) {
        // --json: the end-of-run summary object on stdout, nothing on stderr but warnings.
        const printed = JSON.parse(result.stdout);
        expect(printed).toMatchObject({
          command: 'refine',
          status: 'complete',
          entries: [
            { model: `openai-compatible:${MODELS.planner}`, outcomes: { judgements: 12, ok: 12 } },
          ],
        });
        expect(printed.entries[0].headline.map((cell: any) => cell.label)).toEqual([
          'Critic_R+ holistic base',
          'Critic_R+ holistic refined',
          'Critic_R+ step_wise_next1 base',
          'Critic_R+ step_wise_next1 refined',
        ]);
        expect(printed.entries[0].usage.map((role: any) => [role.role, role.calls])).toEqual([
          ['planner', 12],
          ['critic', 12],
          ['judge', 12],
        ]);
        expect(printed.table4).toHaveLength(4);
        expect(result.stderr).toBe('');
      } else {
        expect(result.stderr).toMatch(/holistic: CR 66\.67% → /);
        expect(result.stderr).toMatch(/apb: refine complete in /);
      }
      const report = readFileSync(path.join(out, 'report.md'), 'utf8');
      expect(report).toContain('### Table 4 · Inference-time refinement');
      if (EXPECTED[tag].to_incorrect > 0) expect(report).toContain('### Over-corrections');
    }
    // The source directory is only read.
    for (const [name, text] of Object.entries(sourceBytes))
      expect(readFileSync(path.join(source, name), 'utf8'), name).toBe(text);
  }, 240_000);
});
