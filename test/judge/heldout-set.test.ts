/**
 * The structural judge on a held-out labelled set (test/fixtures/labelled/structural-judge-heldout.jsonl,
 * docs/rules-judge.md "Held-out set"): answers crafted and labelled by an engineer who had not read the
 * judge or the development sets, on real cases those sets never use. It reports agreement and false
 * positives (judged correct, labelled incorrect) overall and per split, and names every disagreement.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Case } from '../../src/dataset/case.js';
import { readCases } from '../../src/dataset/read-cases.js';
import { runChecks } from '../../src/judge/checks/index.js';
import { rulesVerdict } from '../../src/judge/rules-judge.js';
import { SETTINGS } from '../../src/settings/index.js';
import { REPO_ROOT } from '../helpers/cli.js';

interface HeldOutItem {
  id: string;
  dataset: string;
  split: string;
  case_id: string;
  label: 'correct' | 'incorrect';
  behaviour: string | null;
  kind: string;
  rationale: string;
  answer: string;
}

const FIXTURE = path.join(REPO_ROOT, 'test/fixtures/labelled/structural-judge-heldout.jsonl');
const items = readFileSync(FIXTURE, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as HeldOutItem);

async function casesOf(dataset: string, ids: Set<string>): Promise<Map<string, Case>> {
  const found = new Map<string, Case>();
  for await (const item of readCases(path.join(REPO_ROOT, 'test/fixtures/datasets', dataset), {
    ids,
  }))
    if (item.kind === 'case') found.set(item.case.id, item.case);
  return found;
}

type Outcome = { item: HeldOutItem; judgedCorrect: boolean; reasoning: string };

function figures(subset: Outcome[]) {
  const wrong = subset.filter(
    ({ item, judgedCorrect }) => judgedCorrect !== (item.label === 'correct'),
  );
  const negatives = subset.filter(({ item }) => item.label === 'incorrect').length;
  const falsePositives = wrong.filter(({ item }) => item.label === 'incorrect').length;
  return {
    n: subset.length,
    agree: subset.length - wrong.length,
    negatives,
    falsePositives,
    falseNegatives: wrong.length - falsePositives,
  };
}

const percent = (part: number, whole: number) =>
  whole === 0 ? '–' : `${((part / whole) * 100).toFixed(1)} %`;
const line = (name: string, f: ReturnType<typeof figures>) =>
  `  ${name.padEnd(26)} ${String(f.n).padStart(3)} items, agreement ${percent(f.agree, f.n).padStart(7)} (${f.agree}/${f.n}), false positives ${f.falsePositives}/${f.negatives} (${percent(f.falsePositives, f.negatives)}), false negatives ${f.falseNegatives}`;

describe('the structural judge on the held-out set', () => {
  it('reports agreement and false positives per split; agreement ≥ 90 %, and no worse than measured on rules@2', async () => {
    const cases = new Map<string, Case>();
    for (const dataset of new Set(items.map((item) => item.dataset))) {
      const ids = new Set(
        items.filter((item) => item.dataset === dataset).map((item) => item.case_id),
      );
      for (const [id, found] of await casesOf(dataset, ids)) cases.set(id, found);
    }
    const outcomes: Outcome[] = items.map((item) => {
      const caseItem = cases.get(item.case_id);
      if (!caseItem) throw new Error(`${item.id}: case ${item.case_id} not found`);
      const parsed = SETTINGS[caseItem.split].parseAnswer(item.answer, caseItem.input);
      const verdict = rulesVerdict(
        caseItem.split,
        parsed,
        runChecks(caseItem, parsed, { text: item.answer, truncated: false }),
      );
      return { item, judgedCorrect: verdict.correct, reasoning: verdict.reasoning };
    });
    const overall = figures(outcomes);
    const splits = [...new Set(items.map((item) => item.split))].sort();
    const disagreements = outcomes.filter(
      ({ item, judgedCorrect }) => judgedCorrect !== (item.label === 'correct'),
    );
    console.log(
      [
        `held-out set: ${items.length} items on ${new Set(items.map((item) => item.case_id)).size} cases (${items.length - overall.negatives} correct, ${overall.negatives} incorrect)`,
        line('overall', overall),
        ...splits.map((split) =>
          line(split, figures(outcomes.filter(({ item }) => item.split === split))),
        ),
        'disagreements:',
        ...disagreements.map(
          ({ item, judgedCorrect, reasoning }) =>
            `  ${item.id} ${item.case_id} [${item.kind}] labelled ${item.label}, judged ${judgedCorrect ? 'correct' : 'incorrect'}: ${reasoning}`,
        ),
      ].join('\n'),
    );
    expect(splits, 'all six released splits').toHaveLength(6);
    // The agreement target holds on this set.
    expect(overall.agree / overall.n).toBeGreaterThanOrEqual(0.9);
    // Its false-positive target (at most 2 % of the incorrect items, i.e. 1 of 64) does not: the
    // floors below are the figures measured on rules@2 (111/119 agreeing, 2/64 false positives,
    // docs/rules-judge.md "Held-out set"); a fix raises them, a regression fails here.
    expect(overall.agree, 'agreeing items (floor measured on rules@2)').toBeGreaterThanOrEqual(111);
    expect(
      overall.falsePositives,
      'false positives (ceiling measured on rules@2)',
    ).toBeLessThanOrEqual(2);
  });
});
