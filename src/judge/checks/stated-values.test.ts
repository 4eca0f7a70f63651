import { describe, expect, it } from 'vitest';
import { mentionsNumber, nearMiss, statedNumber } from './stated-values.js';

describe('statedNumber', () => {
  const request =
    'what did the third episode of the second season of westworld talk about? page 4 please';
  it.each<[string, number | null]>([
    ['season_number', 2],
    ['episode_number', 3],
    ['page', 4],
    ['total_baggages', null],
    ['tv_id', null],
  ])('%s → %j', (argument, expected) => expect(statedNumber(argument, request)).toBe(expected));
  it('gives nothing when the request states two numbers for one noun', () =>
    expect(statedNumber('season_number', 'compare season 1 and season 2')).toBeNull());
});

describe('mentionsNumber', () => {
  it.each<[number, string, boolean]>([
    [1, 'the first season', true],
    [3, 'three bags', true],
    [2024, 'since 2024', true],
    [2, 'the first season', false],
    [13, 'thirteen', false],
  ])('%j in %j → %s', (number, text, expected) =>
    expect(mentionsNumber(number, text)).toBe(expected),
  );
});

describe('nearMiss', () => {
  const context = 'you are sofia hernandez, zip 98193, order #w3947049, reservation h8q05l';
  it.each<[unknown, string | null]>([
    ['98139', '98193'],
    ['#W3947094', '#w3947049'],
    ['H8Q50L', 'h8q05l'],
    ['98193', null],
    ['12345', null],
    ['abc', null],
    ['economy', null],
  ])('%j → %j', (value, expected) => expect(nearMiss(value, context)).toBe(expected));
});
