import { describe, expect, it } from 'vitest';
import { makeTool } from '../judge/checks/make-case.fixture.js';
import { scoreTools, stem, tokenize, verbClass } from './lexical.js';

describe('stem', () => {
  it.each([
    ['bookings', 'book'],
    ['speed', 'speed'],
    ['listed', 'list'],
    ['booking', 'book'],
    ['booked', 'book'],
    ['books', 'book'],
    ['cities', 'city'],
    ['searches', 'search'],
    ['class', 'class'],
    ['bus', 'bus'],
    ['status', 'status'],
    ['analysis', 'analysis'],
  ])('%s → %s', (token, expected) => {
    expect(stem(token)).toBe(expected);
  });
});

describe('tokenize', () => {
  it.each<[string, string[]]>([
    ['searchHotels', ['search', 'hotel']],
    ['get_flight_status', ['get', 'flight', 'status']],
    ['Find the cheapest flights to Rome!', ['find', 'cheapest', 'flight', 'rome']],
    ['a I x', []],
  ])('%s', (text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });
});

describe('scoreTools', () => {
  const tools = [
    makeTool('search_flights', 'Search flights between two cities.', ['origin']),
    makeTool('get_weather', 'Weather forecast for a city.', ['city']),
    makeTool('play_music', 'Play a song.'),
  ];

  it('scores name matches above description matches, and unrelated tools zero', () => {
    const [flights, weather, music] = scoreTools(
      'Find flights to Rome and the weather there',
      tools,
    );
    expect(flights!.score).toBeGreaterThan(0);
    expect(weather!.score).toBeGreaterThan(0);
    expect(music!.score).toBe(0);
    expect(music!.firstMention).toBe(Number.POSITIVE_INFINITY);
    expect(flights!.matched).toEqual(['flight']);
    expect(flights!.firstMention).toBeLessThan(weather!.firstMention);
  });

  it('weighs rare words above common ones', () => {
    const [flights, weather] = scoreTools('city flights', tools);
    expect(flights!.score).toBeGreaterThan(weather!.score);
  });

  it('is zero for every tool when nothing overlaps, and handles an empty bank', () => {
    expect(scoreTools('translate this poem', tools).every((item) => item.score === 0)).toBe(true);
    expect(scoreTools('anything', [])).toEqual([]);
  });
});

describe('verbClass', () => {
  it.each<[string, number]>([
    ['search_hotels', 0],
    ['getWeather', 0],
    ['lookup_order', 0],
    ['calculate_total', 1],
    ['currency_convert', 1],
    ['weather', 1],
    ['book_hotel', 2],
    ['sendEmail', 2],
    ['cancel_order', 2],
    ['get_and_delete', 0],
  ])('%s → %i', (name, rank) => {
    expect(verbClass(name)).toBe(rank);
  });
});
