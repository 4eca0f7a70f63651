import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Tool } from './case.js';
import { normalizeTool } from './normalize.js';
import { readCases } from './read-cases.js';
import { toolEffect, wordsOf } from './tool-effect.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tool = (name: string, description = '', extra: Partial<Tool> = {}): Tool => ({
  name,
  description,
  ...extra,
});

describe('wordsOf', () => {
  it.each([
    ['get_reservation_details', ['get', 'reservation', 'details']],
    ['AltGetMovieCredit', ['alt', 'get', 'movie', 'credit']],
    ['GetTVSeaonCredit', ['get', 'tv', 'seaon', 'credit']],
    ['update-reservation_v2', ['update', 'reservation', 'v']],
  ])('%s', (text, words) => expect(wordsOf(text)).toEqual(words));
});

describe('toolEffect', () => {
  it.each<[string, Tool, string, string]>([
    [
      'an MCP readOnlyHint wins over the name',
      normalizeTool({
        name: 'delete_cache_entry',
        description: '',
        annotations: { readOnlyHint: true },
      }),
      'read-only',
      'annotation',
    ],
    [
      'an MCP destructiveHint',
      normalizeTool({
        name: 'get_and_clear',
        description: '',
        annotations: { destructiveHint: true },
      }),
      'state-changing',
      'annotation',
    ],
    [
      'a side_effect word',
      normalizeTool({ name: 'ping', description: '', side_effect: 'write' }),
      'state-changing',
      'annotation',
    ],
    [
      'a side_effects boolean',
      normalizeTool({ name: 'book', description: '', side_effects: false }),
      'read-only',
      'annotation',
    ],
    [
      'the HTTP method of the description',
      tool('MovieRecommendation', 'Recommendations (GET /movie/{id}/recommendations)'),
      'read-only',
      'http-method',
    ],
    [
      'a DELETE endpoint',
      tool('Reviews', 'Remove a review (DELETE /review/{id})'),
      'state-changing',
      'http-method',
    ],
    [
      'the first verb of the name, past a prefix',
      tool('alt_book_reservation'),
      'state-changing',
      'name',
    ],
    [
      'a read verb',
      tool('get_order_details', 'Get the status and details of an order.'),
      'read-only',
      'name',
    ],
    ['return is a write in retail', tool('return_delivered_order_items'), 'state-changing', 'name'],
    [
      'no verb in the name: the description decides',
      tool('ImageDescription', 'Describes the objects in an image.'),
      'read-only',
      'description',
    ],
    [
      'a description verb after a bracketed title',
      tool('Payments', '[Payments] Charge the card of a customer.'),
      'state-changing',
      'description',
    ],
    ['nothing to go on', tool('Helper2', 'A helpful utility.'), 'unknown', 'none'],
  ])('%s', (_name, subject, effect, basis) => {
    const reading = toolEffect(subject);
    expect([reading.effect, reading.basis]).toEqual([effect, basis]);
  });
});

describe('every tool of the real fixtures', () => {
  it('is classified as the hand-reviewed list says', async () => {
    const expected = JSON.parse(
      readFileSync(path.join(ROOT, 'test/fixtures/labelled/tool-effects.json'), 'utf8'),
    ) as Record<string, Record<string, string>>;
    for (const dataset of ['tau2-bench-apb', 'restbench-tmdb-apb']) {
      const tools = new Map<string, Tool>();
      for await (const item of readCases(path.join(ROOT, 'test/fixtures/datasets', dataset), {
        splits: ['holistic_planning', 'step_wise_tool_broken', 'holistic_tool_extraneous'],
      })) {
        if (item.kind !== 'case') continue;
        for (const listed of item.case.input.tools) tools.set(listed.name, listed);
      }
      const actual = Object.fromEntries(
        [...tools.keys()].sort().map((name) => {
          const reading = toolEffect(tools.get(name)!);
          return [
            name,
            `${reading.effect} (${reading.basis}${reading.word ? `: ${reading.word}` : ''})`,
          ];
        }),
      );
      expect(actual, dataset).toEqual(expected[dataset]);
    }
  });
});
