/**
 * A panel over real HTTP (`--judge rules --judge A --judge B`): every member and the aggregate are
 * stored, κ/α and the contradictions land in scores.json, and `apb agreement` gives the Table 7–9
 * numbers computed by hand below.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEHAVIOR_OUTPUT } from '../../src/judge/prompts/common.js';
import { RULES_PROMPT_VERSION } from '../../src/judge/rules-judge.js';
import { startFakeServer, type FakeServer, type RecordedRequest } from '../fake-server/index.js';
import { apb, BAD_E4, caseOf, GOOD, readLines, sample, system, tempDir } from './helpers.js';

const A = 'openai-compatible:judge-a';
const B = 'openai-compatible:judge-b';
const PANEL = `panel(rules+${A}+${B})`;
// Holistic cases 1–4: A = [F, T, T, T], B = [F, F, T, T]. Tool-broken: A says alter, B says replace (both correct).
const INCORRECT: Record<string, string[]> = {
  'judge-a': ['sample-hp-01'],
  'judge-b': ['sample-hp-01', 'sample-hp-02'],
};

let server: FakeServer;
let out: string;
let lines: Record<string, any>[];
const cacheDir = tempDir('apb-panel-cache-');

beforeAll(async () => {
  const holistic = (await sample()).filter((caseItem) => caseItem.split === 'holistic_planning');
  server = await startFakeServer({
    respond: (request: RecordedRequest) => {
      const model = request.parsed!.model!;
      if (system(request).includes(BEHAVIOR_OUTPUT))
        return {
          text: JSON.stringify({
            reasoning: 'r',
            behavior: model === 'judge-a' ? 'alter' : 'replace',
          }),
        };
      return {
        text: JSON.stringify(
          INCORRECT[model]!.includes(caseOf(request, holistic).id) ? BAD_E4() : GOOD,
        ),
      };
    },
  });
  out = path.join(tempDir(), 'run');
  const args = [
    'run',
    '--model',
    'baseline:oracle',
    '--judge',
    'rules',
    '--judge',
    A,
    '--judge',
    B,
    '--judge-base-url',
    server.baseUrl('openai'),
    '--no-cache',
  ];
  const result = await apb(
    [...args, '--splits', 'holistic_planning,step_wise_tool_broken', '--limit', '4', '--out', out],
    cacheDir,
  );
  expect(result.code, result.stderr).toBe(0);
  lines = readLines(path.join(out, 'judgements.jsonl'));
});
afterAll(() => server.close());

const holisticIds = ['sample-hp-01', 'sample-hp-02', 'sample-hp-03', 'sample-hp-04'];

describe('a panel run', () => {
  it('records the aggregate as the judgement and every member under apb.judges', () => {
    expect(lines).toHaveLength(8);
    expect(server.countsByPath()).toEqual({ '/v1/chat/completions': 16 });
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.identity).toMatchObject({
      judges: ['rules', A, B],
      judge_version: expect.stringMatching(/^panel@/),
    });
    for (const line of lines) {
      expect(line.judge_model).toBe(PANEL);
      expect(line.apb.judge_kind).toBe('llm');
      expect(
        line.apb.judges.map((member: any) => [member.judge, member.kind, member.status]),
      ).toEqual([
        ['rules', 'rules', 'ok'],
        [A, 'llm', 'ok'],
        [B, 'llm', 'ok'],
      ]);
      const [rules, a, b] = line.apb.judges;
      expect(rules).toMatchObject({
        judge_prompt_version: RULES_PROMPT_VERSION,
        usage: null,
        version: RULES_PROMPT_VERSION,
      });
      for (const member of [a, b]) {
        expect(member.judge_prompt_version).toMatch(new RegExp(`^judge-${line.split}@`));
        expect(member.usage.inputTokens).toBeGreaterThan(0);
        expect(Object.keys(member.judgement)).toEqual(
          expect.arrayContaining(['is_correct', 'grade', 'error_list', 'reasoning']),
        );
        expect(Array.isArray(member.contradictions)).toBe(true);
      }
      expect(rules.contradictions).toBeUndefined();
      expect(line.apb.usage.inputTokens).toBe(a.usage.inputTokens + b.usage.inputTokens);
    }
    const byId = new Map(lines.map((line) => [line.id, line]));
    expect(
      holisticIds.map((id) =>
        byId.get(id)!.apb.judges.map((member: any) => member.judgement.is_correct),
      ),
    ).toEqual([
      [true, false, false],
      [true, true, false],
      [true, true, true],
      [true, true, true],
    ]);
    // majority of three: hp-01 incorrect (grades 1, 0.6, 0.6 → median 0.6, E4 by 2 of 3), hp-02 correct.
    expect(byId.get('sample-hp-01')!.judgement).toMatchObject({
      is_correct: false,
      grade: 0.6,
      error_list: [0, 0, 0, 1, 0, 0],
    });
    expect(byId.get('sample-hp-02')!.judgement).toMatchObject({ is_correct: true, grade: 1 });
    const broken = lines.filter((line) => line.split === 'step_wise_tool_broken');
    expect(
      broken.every(
        (line) =>
          line.apb.judges[1].judgement.behavior === 'alter' &&
          line.apb.judges[2].judgement.behavior === 'replace',
      ),
    ).toBe(true);
    // rules and B say replace, A says alter: replace wins on the passing side.
    expect(broken.map((line) => line.apb.judges[0].judgement.behavior)).toEqual([
      'replace',
      'replace',
      'replace',
      'replace',
    ]);
    expect(broken.map((line) => line.judgement.behavior)).toEqual([
      'replace',
      'replace',
      'replace',
      'replace',
    ]);
  });

  it('puts κ per pair, α and the disagreements into scores.json', () => {
    const { agreement } = JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8'));
    expect(agreement.judges).toEqual([A, B, 'rules']);
    // holistic: A = [F,T,T,T], B = [F,F,T,T] → p_o = 3/4, p_e = 1/2 → κ = 0.5.
    expect(
      agreement.bySplit.holistic_planning.pairs.find(
        (pair: any) => pair.judgeA === A && pair.judgeB === B,
      ),
    ).toEqual({ judgeA: A, judgeB: B, n: 4, percentAgreement: 75, kappa: 0.5 });
    // overall adds four cases both call correct: p_o = 7/8, p_e = 7/8·6/8 + 1/8·2/8 = 44/64 → κ =
    // (56/64 − 44/64)/(20/64) = 0.6.
    expect(
      agreement.overall.pairs.find((pair: any) => pair.judgeA === A && pair.judgeB === B).kappa,
    ).toBeCloseTo(0.6, 12);
    // rules says correct everywhere: κ with it is undefined (p_e = 1 with A on tool-broken, where all agree).
    expect(
      agreement.bySplit.step_wise_tool_broken.pairs.every((pair: any) => pair.kappa === null),
    ).toBe(true);
    expect(typeof agreement.overall.alphaCorrect.alpha).toBe('number');
    expect(typeof agreement.overall.alphaGrade.alpha).toBe('number');
    const disagreeing = agreement.disagreements.map((entry: any) => [entry.caseKey, entry.fields]);
    expect(disagreeing).toEqual(
      expect.arrayContaining([
        ['holistic_planning/sample-hp-01 (baseline:oracle, repeat 0)', ['correct']],
        ['holistic_planning/sample-hp-02 (baseline:oracle, repeat 0)', ['correct']],
      ]),
    );
    expect(
      agreement.disagreements
        .filter((entry: any) => entry.split === 'step_wise_tool_broken')
        .every((entry: any) => entry.fields.join() === 'behavior'),
    ).toBe(true);
  });

  it('stores the contradictions of each LLM verdict and counts them per split in scores.json', () => {
    const { contradictions } = JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8'));
    const broken = lines.filter((line) => line.split === 'step_wise_tool_broken');
    // A says alter; where the oracle's first call is the designated replacement, that contradicts the checks.
    const replacementOf = (line: Record<string, any>) => {
      const tool = JSON.parse(line.replacement_tool_json);
      return tool.name ?? tool.function.name;
    };
    const expected = broken.filter(
      (line) => line.apb.findings.brokenTool.calledTool === replacementOf(line),
    ).length;
    expect(expected).toBeGreaterThan(0);
    expect(
      broken.filter((line) =>
        line.apb.judges[1].contradictions.some(
          (entry: any) => entry.code === 'broken-alter-is-replacement',
        ),
      ),
    ).toHaveLength(expected);
    expect(
      contradictions.byJudge[A].bySplit.step_wise_tool_broken.byCode['broken-alter-is-replacement'],
    ).toBe(expected);
    expect(contradictions.byJudge[B].overall.flagged).toBe(0);
    expect(contradictions.overall.checked).toBe(8);
    expect(Object.keys(contradictions.bySplit).sort()).toEqual([
      'holistic_planning',
      'step_wise_tool_broken',
    ]);
  });

  it('shows agreement and contradictions in report.md and report.html', () => {
    for (const file of ['report.md', 'report.html']) {
      const text = readFileSync(path.join(out, file), 'utf8');
      expect(text, file).toContain('Judge agreement');
      expect(text, file).toContain('Judge verdicts vs deterministic checks');
      expect(text, file).toContain('broken-alter-is-replacement');
    }
  });
});

describe('apb agreement', () => {
  // Labels for hp-01..04 and one that matches nothing. Against judge A (hp-01 incorrect 0.6 E4; the rest correct 1):
  //   hp-01 human F 0.4 E4 → TN, |Δgrade| 0.2, flags 6/6 · hp-02 human T 1 (correct but different) → TP, 0, 6/6
  //   hp-03 human F 0.6 E2 → FP, 0.4, 5/6 · hp-04 human T 1 (standard) → TP, 0, 6/6
  // Table 7: agreement 3/4 = 75%, precision 2/3 = 66.7%, recall 2/2 = 100%, F1 = 0.8, MAE 0.6/4 =
  // 0.15, Err-Type 23/24 = 95.8%.
  // Table 9: human CR 50%, judge CR 75% (+25.0); human grade 0.75, judge grade 0.9 (+0.150).
  const labels = [
    {
      id: 'sample-hp-01',
      tested_model: 'baseline:oracle',
      is_correct: false,
      grade: 0.4,
      error_list: [0, 0, 0, 1, 0, 0],
    },
    {
      id: 'sample-hp-02',
      tested_model: 'baseline:oracle',
      is_correct: true,
      grade: 1,
      error_list: [0, 0, 0, 0, 0, 0],
      correct_but_different: true,
    },
    {
      id: 'sample-hp-03',
      tested_model: 'baseline:oracle',
      is_correct: false,
      grade: 0.6,
      error_list: [0, 1, 0, 0, 0, 0],
    },
    {
      id: 'sample-hp-04',
      tested_model: 'baseline:oracle',
      is_correct: true,
      grade: 1,
      error_list: [0, 0, 0, 0, 0, 0],
      correct_but_different: false,
    },
    {
      id: 'sample-hp-99',
      tested_model: 'baseline:oracle',
      is_correct: true,
      grade: 1,
      error_list: [0, 0, 0, 0, 0, 0],
    },
  ];
  const labelFile = () => {
    const file = path.join(tempDir(), 'labels.jsonl');
    writeFileSync(file, labels.map((label) => JSON.stringify(label)).join('\n') + '\n');
    return file;
  };

  it('gives the hand-computed Table 7–9 numbers per judge, the panel included (JSON)', async () => {
    const result = await apb(
      ['agreement', out, '--human', labelFile(), '--format', 'json'],
      cacheDir,
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ labels: 5, unmatchedLabels: 1 });
    expect(summary.calibrations.map((entry: any) => entry.judge)).toEqual([A, B, PANEL, 'rules']);
    const a = summary.calibrations[0];
    expect(a).toMatchObject({ compared: 4, unjudged: 0, unmatched: 4, labelsNotCompared: 1 });
    expect(a.table7.confusion).toEqual({
      truePositive: 2,
      falsePositive: 1,
      falseNegative: 0,
      trueNegative: 1,
    });
    expect(a.table7.agreement).toBeCloseTo(75, 10);
    expect(a.table7.precision).toBeCloseTo(200 / 3, 10);
    expect(a.table7.recall).toBeCloseTo(100, 10);
    expect(a.table7.f1).toBeCloseTo(0.8, 10);
    expect(a.table7.gradeMae).toBeCloseTo(0.15, 10);
    expect(a.table7.errorTypeAgreement).toBeCloseTo(75, 10); // exact E1–E6 match on 3 of 4 rows
    expect(a.table7.flagAgreement).toBeCloseTo((23 / 24) * 100, 10);
    expect(a.table8).toEqual({
      correctButDifferent: { n: 1, agreement: 100, gradeMae: 0 },
      standardCorrect: { n: 1, agreement: 100, gradeMae: 0 },
      unlabelled: 0,
    });
    expect(a.table9).toHaveLength(1);
    expect(a.table9[0]).toMatchObject({
      testedModel: 'baseline:oracle',
      n: 4,
      humanCr: 50,
      judgeCr: 75,
      crBias: 25,
    });
    expect(a.table9[0].gradeBias).toBeCloseTo(0.15, 10);
    expect(result.stderr).toContain('1 of 5 label(s) match no judged answer');
  });

  it('prints Tables 7–9 in Markdown', async () => {
    const result = await apb(['agreement', out, '--human', labelFile()], cacheDir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `| ${A} | 4 | 75.0% | 66.7% | 100.0% | 0.800 | 0.150 | 75.0% | 95.8% |`,
    );
    expect(result.stdout).toContain(
      '| baseline:oracle | 4 | 50.0% | 75.0% | +25.0 | 0.750 | 0.900 | +0.150 |',
    );
    expect(result.stdout).toContain(`## Table 9: judge ${PANEL} vs human, per tested model`);
  });

  it('refuses a bad label file with FILE:LINE: field: message and exit 2', async () => {
    const file = path.join(tempDir(), 'bad.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify(labels[0])}\n${JSON.stringify({ ...labels[1], grade: 0.7 })}\n{"id": 3\n`,
    );
    const result = await apb(['agreement', out, '--human', file], cacheDir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:2: grade: must be one of 0, 0.2, 0.4, 0.6, 0.8, 1`);
    expect(result.stderr).toMatch(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: \\(line\\): invalid JSON`),
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
