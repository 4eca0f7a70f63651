/**
 * `apb run --judge openai-compatible:… --judge-base-url …` over real HTTP, with a scripted fake judge
 * that picks each reply by reading the request: malformed, inconsistent, truncated and refusing
 * replies are never recorded as correct; the judge request carries the images, the reference and
 * the planner's prompt in every setting. The planner is `baseline:oracle`, so only the judge calls out.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_DATASET_DIR } from '../../src/dataset/read-cases.js';
import { plannerPromptOf } from '../../src/pipeline/evaluate-case.js';
import { referenceText } from '../../src/judge/render-reference.js';
import { DEFAULT_PROMPT_OPTIONS } from '../../src/settings/prompt.js';
import { startFakeServer, type FakeReply, type FakeServer } from '../fake-server/index.js';
import {
  apb,
  BAD_E4,
  caseOf,
  correctReplyFor,
  GOOD,
  isReask,
  material,
  readLines,
  sample,
  tempDir,
} from './helpers.js';

let server: FakeServer;
const cacheDir = tempDir('apb-judge-cache-');
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const judgeArgs = () => [
  '--model',
  'baseline:oracle',
  '--judge',
  'openai-compatible:fake-judge',
  '--judge-base-url',
  server.baseUrl('openai'),
  '--no-cache',
];
const text = (value: unknown) => JSON.stringify(value);

/**
 * Per case: the first reply and the reply to the re-ask (the same unless told), and whether the
 * line may be correct.
 */
const SCRIPT: Record<
  string,
  {
    first: FakeReply;
    reask?: FakeReply;
    correct: boolean;
    status: 'ok' | 'judge_error';
    check?: (line: Record<string, any>) => void;
  }
> = {
  'sample-hp-01': {
    first: { text: `\`\`\`json\n${JSON.stringify(GOOD, null, 2)}\n\`\`\`` },
    correct: true,
    status: 'ok',
  },
  'sample-hp-02': {
    first: { text: `My verdict follows.\n${text(GOOD)}\nThat is all.` },
    correct: true,
    status: 'ok',
  },
  // A string is no verdict under the one strict boolean rule (true/false, 1/0): unjudged, never correct.
  'sample-hp-03': {
    first: { text: text({ ...BAD_E4(), is_correct: 'false' }) },
    correct: false,
    status: 'judge_error',
  },
  'sample-hp-04': {
    first: { text: text(BAD_E4(0.73)) },
    correct: false,
    status: 'ok',
    check: (line) => expect(line.judgement.grade).toBe(0.8),
  },
  'sample-hp-05': {
    first: { text: text({ ...GOOD, grade: 80 }) },
    correct: false,
    status: 'judge_error',
    check: (line) => expect(line.judgement.grade).toBeNull(),
  },
  'sample-hp-06': {
    first: { text: text({ ...GOOD, errors: { ...GOOD.errors, E5: true } }) },
    correct: false,
    status: 'ok',
    check: (line) =>
      expect(line.judgement).toMatchObject({ grade: 0.8, error_list: [0, 0, 0, 0, 1, 0] }),
  },
  'sample-hp-07': { first: { text: text(GOOD) }, correct: true, status: 'ok' },
  'sample-hp-08': { first: { text: text(GOOD) }, correct: true, status: 'ok' },
  'sample-hp-09': { first: { text: '' }, correct: false, status: 'judge_error' },
  'sample-hp-10': {
    first: {
      text: '{"reasoning": "The plan books the flight", "errors": {"E1": false, "E2": fa',
      finishReason: 'length',
    },
    correct: false,
    status: 'judge_error',
    check: (line) => expect(line.apb.judge_error.message).toContain('output-token limit'),
  },
  'sample-sp-01': {
    first: { text: "I'm sorry, but I cannot evaluate this plan." },
    correct: false,
    status: 'judge_error',
    check: (line) => expect(line.apb.judge_error.reason).toBe('judge-refused'),
  },
  'sample-sp-02': {
    first: { text: text({ reasoning: 'ok', error_list: [0, 0, 0], is_correct: true, grade: 1 }) },
    correct: false,
    status: 'judge_error',
  },
  'sample-sp-03': {
    first: { text: text({ ...GOOD, is_correct: 'maybe' }) },
    correct: false,
    status: 'judge_error',
  },
  'sample-sp-04': {
    first: { text: '' },
    reask: { text: text(GOOD) },
    correct: true,
    status: 'ok',
    check: (line) => expect(line.apb.notes.join()).toContain('readable on ask 2'),
  },
  'sample-sp-05': {
    first: {
      text: text({ reasoning: 'fine', error_list: [0, 0, 0, 0, 0, 0], is_correct: true, grade: 1 }),
    },
    correct: true,
    status: 'ok',
  },
  'sample-sp-06': {
    first: { text: text({ ...GOOD, is_correct: false, grade: 0.6 }) },
    correct: false,
    status: 'judge_error',
    check: (line) => expect(line.apb.judge_error.reason).toBe('judge-inconsistent'),
  },
  'sample-sp-07': {
    first: { text: text({ is_correct: true }) },
    correct: false,
    status: 'judge_error',
  },
  'sample-sp-08': {
    first: { text: `${text(GOOD)}\n${text(BAD_E4())}` },
    correct: false,
    status: 'judge_error',
  },
  // The grade snaps to the grid; the string "true" is no verdict under the strict boolean rule.
  'sample-sp-09': {
    first: { text: text({ ...GOOD, is_correct: 'true', grade: 0.93 }) },
    correct: false,
    status: 'judge_error',
  },
  // 1 reads as true under the one strict boolean rule (the official scorer's: true/false, 1/0).
  'sample-sp-10': {
    first: { text: text({ reasoning: 'ok', errors: GOOD.errors, is_correct: 1, grade: 1 }) },
    correct: true,
    status: 'ok',
  },
};

describe('an LLM judge over HTTP: strict reading of scripted replies', () => {
  it('records a case as correct only for a readable, consistent verdict of correctness', async () => {
    const cases = (await sample()).filter(
      (caseItem) =>
        caseItem.split === 'holistic_planning' || caseItem.split === 'step_wise_planning',
    );
    server.configure({
      respond: (request) => {
        const entry = SCRIPT[caseOf(request, cases).id]!;
        return isReask(request) ? (entry.reask ?? entry.first) : entry.first;
      },
    });
    const out = path.join(tempDir(), 'run');
    const result = await apb(
      ['run', ...judgeArgs(), '--splits', 'holistic_planning,step_wise_planning', '--out', out],
      cacheDir,
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = readLines(path.join(out, 'judgements.jsonl'));
    expect(lines.map((line) => line.id).sort()).toEqual(Object.keys(SCRIPT).sort());
    for (const line of lines) {
      const entry = SCRIPT[line.id]!;
      expect([line.id, line.judgement.is_correct, line.apb.status]).toEqual([
        line.id,
        entry.correct,
        entry.status,
      ]);
      expect(line.judge_model).toBe('openai-compatible:fake-judge');
      entry.check?.(line);
      if (line.apb.status === 'judge_error') expect(line.judgement.grade, line.id).toBeNull();
      if (line.judgement.is_correct)
        expect(line.judgement.error_list, line.id).toEqual([0, 0, 0, 0, 0, 0]);
    }
    // Every judge request asked for JSON at temperature 0; unreadable replies were re-asked once.
    expect(
      server.requests.every(
        (request) => request.parsed?.jsonMode === true && request.parsed.temperature === 0,
      ),
    ).toBe(true);
    const reasked = new Set(
      server.requests.filter(isReask).map((request) => caseOf(request, cases).id),
    );
    expect([...reasked].sort()).toEqual(
      Object.entries(SCRIPT)
        .filter(([, entry]) => entry.status === 'judge_error' || entry.reask)
        .map(([id]) => id)
        .sort(),
    );
    const scores = JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8'));
    expect(scores.groups.overall).toMatchObject({ records: 20, accuracy: 7 / 20 });
    expect(scores.contradictions.overall.checked).toBe(
      lines.filter((line) => line.apb.status === 'ok').length,
    );
  });
});

describe('what the judge request carries', () => {
  it('sends the images of an image case to the judge, with their MIME types', async () => {
    server.configure({ respond: (request) => ({ text: correctReplyFor(request) }) });
    const out = path.join(tempDir(), 'run');
    const result = await apb(
      ['run', ...judgeArgs(), '--ids', 'sample-hp-07,sample-hp-08', '--out', out],
      cacheDir,
    );
    expect(result.code, result.stderr).toBe(0);
    const cases = (await sample()).filter((caseItem) => caseItem.split === 'holistic_planning');
    const sha = (file: string) =>
      createHash('sha256')
        .update(readFileSync(path.join(SAMPLE_DATASET_DIR, file)))
        .digest('hex');
    const imagesOf = (id: string) =>
      server.requests
        .filter((request) => caseOf(request, cases).id === id)
        .flatMap((request) => request.parsed!.messages.flatMap((message) => message.images));
    expect(imagesOf('sample-hp-07').map((image) => [image.mimeType, image.sha256])).toEqual([
      ['image/png', sha('assets/receipt_trattoria_da_paolo.png')],
    ]);
    expect(imagesOf('sample-hp-08').map((image) => [image.mimeType, image.sha256])).toEqual([
      ['image/png', sha('assets/teamline_settings_start.png')],
      ['image/png', sha('assets/teamline_settings_goal.png')],
    ]);
  });

  it("carries the reference and the planner's exact prompt text in every setting", async () => {
    server.configure({ respond: (request) => ({ text: correctReplyFor(request) }) });
    const out = path.join(tempDir(), 'run');
    const result = await apb(['run', ...judgeArgs(), '--limit', '2', '--out', out], cacheDir);
    expect(result.code, result.stderr).toBe(0);
    const lines = readLines(path.join(out, 'judgements.jsonl'));
    expect(new Set(lines.map((line) => line.split)).size).toBe(7);
    expect(
      lines.every((line) => line.apb.status === 'ok' && line.judgement.is_correct === true),
    ).toBe(true);
    const byId = new Map((await sample()).map((caseItem) => [caseItem.id, caseItem]));
    const materials = server.requests.map(material);
    for (const line of lines) {
      const caseItem = byId.get(line.id)!;
      const promptTexts = plannerPromptOf(caseItem, DEFAULT_PROMPT_OPTIONS).messages.flatMap(
        (message) => message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])),
      );
      const carrying = materials.filter(
        (text) =>
          text.includes(referenceText(caseItem)) &&
          promptTexts.every((part) => text.includes(part)) &&
          text.includes(line.model_response),
      );
      expect(carrying.length, `${line.split} ${line.id}`).toBeGreaterThan(0);
      expect(
        carrying.every(
          (text) => text.includes('=== REFERENCE ===') && text.includes('=== PLANNER PROMPT ==='),
        ),
      ).toBe(true);
    }
  });
});
