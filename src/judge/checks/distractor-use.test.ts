import { describe, expect, it } from 'vitest';
import type { SplitName } from '../../dataset/case.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { distractorUseCheck } from './distractor-use.js';
import { makeCase } from './make-case.fixture.js';

const reference = { extraneousToolNames: ['fetch_weather_v2', 'lookup_climate'] };
const plan = (...names: string[]): ParsedAnswer => ({
  kind: 'plan',
  plan: '',
  toolChain: names.map((name) => ({ name, arguments: {} })),
  schemaIssues: [],
});

describe('distractorUseCheck (D3)', () => {
  it.each<[string, SplitName, ParsedAnswer, { names: string[]; count: number } | null]>([
    ['no distractor', 'holistic_tool_extraneous', plan('get_weather'), { names: [], count: 0 }],
    [
      'one distractor call',
      'holistic_tool_extraneous',
      plan('get_weather', 'lookup_climate'),
      { names: ['lookup_climate'], count: 1 },
    ],
    [
      'count is calls, names are distinct',
      'holistic_tool_extraneous',
      plan('lookup_climate', 'fetch_weather_v2', 'lookup_climate'),
      { names: ['lookup_climate', 'fetch_weather_v2'], count: 3 },
    ],
    [
      'exact names only',
      'holistic_tool_extraneous',
      plan('Lookup_Climate'),
      { names: [], count: 0 },
    ],
    [
      'step-wise extraneous',
      'step_wise_tool_extraneous',
      {
        kind: 'steps',
        steps: [{ thought: '', toolCall: { name: 'lookup_climate', arguments: {} } }],
        schemaIssues: [],
      },
      { names: ['lookup_climate'], count: 1 },
    ],
    [
      'parse failure uses none',
      'holistic_tool_extraneous',
      { kind: 'parse_error', message: 'x' },
      { names: [], count: 0 },
    ],
    ['not an extraneous split', 'holistic_planning', plan('lookup_climate'), null],
    ['not an extraneous split (step-wise)', 'step_wise_planning', plan('lookup_climate'), null],
  ])('%s', (_name, split, parsed, expected) => {
    expect(distractorUseCheck.run(makeCase(split, { reference }), parsed)).toEqual(expected);
  });
});
