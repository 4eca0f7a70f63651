import { describe, expect, it } from 'vitest';
import type { Tool } from '../../dataset/case.js';
import { makeTool } from './make-case.fixture.js';
import { alignCalls, standsIn } from './plan-alignment.js';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

describe('alignCalls', () => {
  it('pairs by tool, preferring agreeing values, and leaves the rest missing or extra', () => {
    const reference = [
      call('get_order', { id: '#A1' }),
      call('get_order', { id: '#B2' }),
      call('cancel', { id: '#A1' }),
    ];
    const answer = [
      call('get_order', { id: '#B2' }),
      call('lookup'),
      call('get_order', { id: '#A1' }),
    ];
    expect(alignCalls(answer, reference)).toEqual({
      pairs: [
        { step: 3, reference: 1 },
        { step: 1, reference: 2 },
      ],
      missing: [3],
      extra: [2],
    });
  });
});

describe('standsIn', () => {
  const tools: Tool[] = [
    makeTool('GetMovieCredit', 'Credits (GET /movie/{id}/credits)', ['movie_id']),
    makeTool('GetMovieDetail', 'Details (GET /movie/{id})', ['movie_id']),
    makeTool('GetMovieImage', 'Images (GET /movie/{id}/images)', ['movie_id']),
    makeTool('SearchPeople', 'Search (GET /search/person)', ['query']),
    makeTool('GetPopularPerson', 'Popular (GET /person/popular)', []),
    makeTool('find_user_id_by_email', 'Find a user id.', ['email']),
    makeTool('find_user_id_by_name_zip', 'Find a user id.', ['name', 'zip']),
    makeTool('cancel_order', 'Cancel an order.', ['movie_id']),
  ];
  const credits = call('GetMovieCredit', { movie_id: '<movie id from step 1>' });
  it.each<[string, ReturnType<typeof call>, ReturnType<typeof call>, boolean]>([
    [
      'details with the credits appended',
      call('GetMovieDetail', { movie_id: '<id from step 1>', append_to_response: 'credits' }),
      credits,
      true,
    ],
    [
      'details without them',
      call('GetMovieDetail', { movie_id: '<id from step 1>' }),
      credits,
      false,
    ],
    [
      'images with the word in a search text only',
      call('GetMovieImage', { movie_id: '<id from step 1>', query: 'credits' }),
      credits,
      false,
    ],
    [
      'a search for the words of another tool',
      call('SearchPeople', { query: 'most popular person' }),
      call('GetPopularPerson'),
      false,
    ],
    [
      'a sibling lookup after _by_',
      call('find_user_id_by_email', { email: 'a@b.c' }),
      call('find_user_id_by_name_zip', { name: 'A', zip: '1' }),
      true,
    ],
    [
      'a write never stands in',
      call('cancel_order', { movie_id: '<id>', note: 'movie credit' }),
      credits,
      false,
    ],
    [
      'an input the target takes must arrive under the same name',
      call('GetMovieDetail', { id: '<id from step 1>', append_to_response: 'credits' }),
      credits,
      false,
    ],
  ])('%s → %s', (_name, candidate, target, expected) =>
    expect(standsIn(candidate, target, tools)).toBe(expected),
  );
});
