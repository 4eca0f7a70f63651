import { describe, expect, it } from 'vitest';
import { commonlySolved, efficiencyRow, solvedCases } from './efficiency.js';
import { computeTables } from './tables.js';
import { noFindings } from '../judge/checks/findings.js';
import { fakeRow } from './fake-rows.fixture.js';
import type { ResultRow } from './result-row.js';

const costed = (
  model: string,
  id: string,
  cost: number | null,
  correct = true,
  overrides: Partial<ResultRow> = {},
) =>
  fakeRow({
    id,
    model,
    correct,
    findings: noFindings({
      planCost: { predictedSteps: 2, referenceSteps: 2, predictedCost: cost, referenceCost: 5 },
    }),
    ...overrides,
    facets: { split: 'holistic_efficiency' },
  });

// Model A: c1 solved (cost 10), c2 solved (cost 6), c3 failed (cost 20), c4 planner error (no cost).
// Model B: c1 solved (cost 8), c2 failed (cost 4), c3 solved (cost 12), c4 solved (cost 2).
const A = [
  costed('a', 'c1', 10),
  costed('a', 'c2', 6),
  costed('a', 'c3', 20, false),
  costed('a', 'c4', null, false, { plannerStatus: 'error', findings: null }),
];
const B = [
  costed('b', 'c1', 8),
  costed('b', 'c2', 4, false),
  costed('b', 'c3', 12),
  costed('b', 'c4', 2),
];

describe('efficiency (Table 5)', () => {
  it('finds the cases every model solved', () => {
    expect([...solvedCases(A)].length).toBe(2);
    const common = commonlySolved([A, B]);
    expect(common.size).toBe(1); // only c1
    expect(commonlySolved([])).toEqual(new Set());
  });

  it('averages costs over all, solved and commonly solved cases', () => {
    const common = commonlySolved([A, B]);
    // A: C_all = (10 + 6 + 20)/3 = 12 (c4 has no cost); C_pass = (10 + 6)/2 = 8; C_com = 10 (c1)
    expect(efficiencyRow(A, common)).toMatchObject({
      cr: 50,
      c_all: 12,
      c_pass: 8,
      c_com: 10,
      costed: 3,
      costed_pass: 2,
      costed_com: 1,
      common_cases: 1,
      errors: 1,
    });
    // B: C_all = (8 + 4 + 12 + 2)/4 = 6.5; C_pass = (8 + 12 + 2)/3 = 7.333; C_com = 8
    const b = efficiencyRow(B, common);
    expect(b).toMatchObject({ cr: 75, c_all: 6.5, c_com: 8 });
    expect(b.c_pass).toBeCloseTo(22 / 3, 12);
  });

  it('counts a case as solved only when all its repeats are correct', () => {
    const repeats = [costed('a', 'r', 1), costed('a', 'r', 1, false, { repeat: 1 })];
    expect(solvedCases(repeats).size).toBe(0);
  });
});

describe('efficiency: answers without a plan, and baselines', () => {
  const refusal = (model: string, id: string) =>
    fakeRow({
      id,
      model,
      correct: false,
      findings: noFindings({
        refusal: { refused: true, explicit: true, evidence: 'REJECT' },
        planCost: { predictedSteps: 0, referenceSteps: 2, predictedCost: 0, referenceCost: 5 },
      }),
      facets: { split: 'holistic_efficiency' },
    });
  const parseError = (model: string, id: string) =>
    fakeRow({
      id,
      model,
      correct: false,
      plannerStatus: 'parse_error',
      findings: noFindings(),
      facets: { split: 'holistic_efficiency' },
    });

  it('a refusal or a parse failure has no plan cost: left out of C_all and counted apart', () => {
    const rows = [costed('a', 'c1', 10), refusal('a', 'c2'), parseError('a', 'c3')];
    expect(efficiencyRow(rows, new Set())).toMatchObject({ c_all: 10, costed: 1, no_plan: 2 });
  });

  it('baseline:refuse never has the best cost: it has none', () => {
    const refuse = ['c1', 'c2', 'c3', 'c4'].map((id) => refusal('baseline:refuse', id));
    const row = efficiencyRow(refuse, new Set());
    expect(row).toMatchObject({ c_all: null, c_pass: null, costed: 0, no_plan: 4 });
  });

  it('C_com stays a number when a baseline joins the comparison', () => {
    const refuse = ['c1', 'c2', 'c3', 'c4'].map((id) => refusal('baseline:refuse', id));
    const tables = computeTables([...A, ...B, ...refuse]);
    const byModel = Object.fromEntries(tables.table5.map((row) => [row.model, row]));
    expect(byModel.a).toMatchObject({ c_com: 10, common_cases: 1 });
    expect(byModel.b).toMatchObject({ c_com: 8, common_cases: 1 });
    expect(byModel['baseline:refuse']).toMatchObject({ c_com: null, c_all: null });
  });

  it('a comparison of baselines only uses them all for C_com', () => {
    const oracle = [costed('baseline:oracle', 'c1', 5), costed('baseline:oracle', 'c2', 5)];
    const heuristic = [
      costed('baseline:heuristic', 'c1', 9),
      costed('baseline:heuristic', 'c2', 9, false),
    ];
    const byModel = Object.fromEntries(
      computeTables([...oracle, ...heuristic]).table5.map((row) => [row.model, row]),
    );
    expect(byModel['baseline:oracle']).toMatchObject({ common_cases: 1, c_com: 5 });
  });
});
