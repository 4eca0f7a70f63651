/**
 * Prose answers are answers (issue 11): over real HTTP, a planner that refuses in words (no JSON)
 * and an LLM judge that calls it a correct refusal give a correct line; garbage, empty or cut-off
 * text that the judge calls a refusal does not, and the contradiction is recorded.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_OUTPUT } from '../../src/judge/prompts/common.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { apb, caseOf, readLines, sample, system, tempDir } from './helpers.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());

describe('prose refusals on unsolvable cases, judged by an LLM judge', () => {
  it('a reasoned prose refusal the judge credits counts; "asdf", empty and cut-off text never do', async () => {
    const cases = (await sample())
      .filter((caseItem) => caseItem.split === 'holistic_unsolvable')
      .slice(0, 4);
    const [prose, garbage, empty, cut] = cases.map((caseItem) => caseItem.id) as [
      string,
      string,
      string,
      string,
    ];
    const planner: Record<string, { text: string; finishReason?: 'length' }> = {
      [prose]: {
        text: 'I cannot complete this request: none of the available tools can do what it needs, so I will not present a plan.',
      },
      [garbage]: { text: 'asdf' },
      [empty]: { text: '' },
      [cut]: {
        text: 'I cannot complete this request: none of the available tools can do what it needs, so I will not',
        finishReason: 'length',
      },
    };
    server.configure({
      respond: (request) => {
        // The judge always says "refused": the verdict must still never credit unreadable text.
        if (system(request).includes(REFUSAL_OUTPUT))
          return {
            text: JSON.stringify({ reasoning: 'The answer declines the task.', refused: true }),
          };
        return planner[caseOf(request, cases).id]!;
      },
    });
    const out = path.join(tempDir(), 'run');
    const args = [
      'run',
      '--model',
      'openai-compatible:fake-planner',
      '--base-url',
      server.baseUrl('openai'),
      '--judge',
      'openai-compatible:fake-judge',
      '--judge-base-url',
      server.baseUrl('openai'),
      '--no-cache',
      '--max-retries',
      '0',
    ];
    const result = await apb(
      [
        ...args,
        '--splits',
        'holistic_unsolvable',
        '--ids',
        cases.map((caseItem) => caseItem.id).join(','),
        '--out',
        out,
      ],
      tempDir('apb-prose-cache-'),
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = Object.fromEntries(
      readLines(path.join(out, 'judgements.jsonl')).map((line) => [line.id, line]),
    );
    for (const id of [prose, garbage, empty, cut])
      expect(lines[id]!.apb.prediction.status, id).toBe('parse_error');
    expect(lines[prose]!.judgement).toMatchObject({ is_correct: true, refused: true });
    for (const id of [garbage, empty, cut]) {
      expect(lines[id]!.judgement, id).toMatchObject({ is_correct: false, refused: false });
      expect(
        lines[id]!.apb.contradictions.map((entry: { code: string }) => entry.code),
        id,
      ).toContain('refusal-credited-unparsed');
    }
    // It counts in the tables too: one pass of four, not a failure of the run.
    const scores = JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8'));
    expect(scores.tables.table1[0].unsolvable).toMatchObject({ passed: 1, n: 4, parse_errors: 4 });
  });
});
