/**
 * No leaks through refinement: with a canary in every reference, label and provenance field of a
 * case of every split, no critique or revision request that reaches the HTTP server holds any of
 * them, nor the judge's verdict on the initial answer; in all four methods and over two rounds.
 * The judge's own requests do hold the canaries, so the check can fail.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPLITS } from '../src/dataset/case.js';
import { cli, readJsonl, tempDir } from './engine/helpers.js';
import { startFakeServer, type FakeServer, type RecordedRequest } from './fake-server/index.js';
import { canaries, record, writeDataset } from './helpers/canary-dataset.js';
import { kindOf, MODELS } from './refine/script.js';

const VERDICT = 'JUDGE-VERDICT-7c1e: the plan refunds the wrong order';
const HOLISTIC = JSON.stringify({
  plan: '1. Find the order.\n2. Refund it.',
  tool_chain: [
    {
      name: 'search_orders',
      parameter_description: { email: 'ana@example.com' },
      reason: 'find it',
    },
    {
      name: 'refund_order',
      parameter_description: { order_id: '<order id from step 1>' },
      reason: 'refund it',
    },
  ],
});
const STEPS = JSON.stringify({
  predicted_steps: [
    { thought: 'Refund the order found.', tool: 'refund_order', arguments: { order_id: 'A-1' } },
  ],
});

function respond(request: RecordedRequest) {
  const kind = kindOf(request);
  if (kind === 'judge') {
    const errors = { E1: false, E2: false, E3: false, E4: true, E5: false, E6: false };
    return {
      text: JSON.stringify({
        reasoning: VERDICT,
        errors,
        is_correct: false,
        grade: 0.4,
        behavior: 'replace',
        refused: false,
      }),
    };
  }
  if (kind === 'critique') return { text: 'Step 2 should check the refund policy first.' };
  const stepWise = request.parsed?.text.includes('predicted_steps') ?? false;
  return { text: stepWise ? STEPS : HOLISTIC };
}

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({ respond });
});
afterAll(() => server.close());

describe('refinement requests never carry references, labels, provenance or verdicts', () => {
  it('holds at the HTTP server for self and critic, with and without the taxonomy, over two rounds', async () => {
    const data = writeDataset(SPLITS.map((split, index) => record(split, index)));
    const url = server.baseUrl('openai');
    const source = path.join(tempDir('apb-leak-refine-'), 'source');
    const judged = ['--judge', `openai-compatible:${MODELS.judge}`, '--judge-base-url', url];
    expect(
      (
        await cli([
          'run',
          '--data',
          data,
          '--model',
          `openai-compatible:${MODELS.planner}`,
          '--base-url',
          url,
          ...judged,
          '--out',
          source,
          '--no-cache',
        ])
      ).code,
    ).toBe(0);
    // The judge saw the canaries (its reference block), and recorded its verdict in the source run.
    expect(
      server.requests
        .filter((request) => kindOf(request) === 'judge')
        .some((request) => canaries.some((value) => request.rawBody.includes(value))),
    ).toBe(true);
    expect(
      readJsonl(path.join(source, 'judgements.jsonl')).every(
        (line) => line.judgement.reasoning === VERDICT,
      ),
    ).toBe(true);
    const critic = ['--critic', `openai-compatible:${MODELS.critic}`, '--critic-base-url', url];
    const methods = [
      ['--mode', 'self'],
      ['--mode', 'self', '--no-metric'],
      ['--mode', 'critic', ...critic],
      ['--mode', 'critic', ...critic, '--no-metric'],
    ];
    let sent = 0;
    for (const method of methods) {
      server.reset();
      const out = path.join(tempDir('apb-leak-refine-'), 'refined');
      const result = await cli([
        'refine',
        source,
        ...method,
        '--rounds',
        '2',
        '--out',
        out,
        '--no-cache',
      ]);
      expect(result.code, result.stderr).toBe(0);
      const refinement = server.requests.filter((request) =>
        ['critique', 'revision'].includes(kindOf(request)),
      );
      // Seven splits, two rounds, a critique and a revision each.
      expect(refinement).toHaveLength(SPLITS.length * 4);
      for (const request of refinement) {
        const body = request.rawBody;
        expect(
          canaries.filter((value) => body.includes(value)),
          `${kindOf(request)} request ${request.index} (${method.join(' ')})`,
        ).toEqual([]);
        expect(body).not.toContain('JUDGE-VERDICT');
        expect(body).not.toContain('is_correct');
        expect(body).not.toMatch(/CANARY-/);
      }
      sent += refinement.length;
      expect(readJsonl(path.join(out, 'judgements.jsonl'))).toHaveLength(SPLITS.length);
    }
    expect(sent).toBe(4 * SPLITS.length * 4);
  }, 180_000);
});
