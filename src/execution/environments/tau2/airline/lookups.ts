/**
 * Airline lookups (tau2's `AirlineTools._get_*` and `_search_direct_flight` helpers) and the tools
 * that only read, with tau2's error texts. Helpers return the session's entity; pass `forWrite`
 * for the session's own writable copy.
 */
import { z } from 'zod';
import { calculate } from '../calculate.js';
import type { Entity, SessionDatabase } from '../database.js';
import { pyHasKey, pyRepr, pyStr, pyTypeName, ToolError } from '../python.js';
import type { Tau2Tool } from '../toolkit.js';
import { AirportCode, DirectFlight, Reservation, User } from './model.js';

/** `_get_user`: "User <id> not found". */
export function getUser(db: SessionDatabase, userId: unknown, forWrite = false): Entity {
  if (!db.has('users', userId)) throw new ToolError(`User ${pyStr(userId)} not found`);
  return forWrite
    ? db.write('users', userId as string)
    : (db.read('users', userId as string) as Entity);
}

/** `_get_reservation`: "Reservation <id> not found". */
export function getReservation(
  db: SessionDatabase,
  reservationId: unknown,
  forWrite = false,
): Entity {
  if (!db.has('reservations', reservationId))
    throw new ToolError(`Reservation ${pyStr(reservationId)} not found`);
  return forWrite
    ? db.write('reservations', reservationId as string)
    : (db.read('reservations', reservationId as string) as Entity);
}

/** `_get_flight`: "Flight <number> not found". */
export function getFlight(db: SessionDatabase, flightNumber: unknown): Entity {
  if (!db.has('flights', flightNumber))
    throw new ToolError(`Flight ${pyStr(flightNumber)} not found`);
  return db.read('flights', flightNumber as string) as Entity;
}

/** `date in mapping` with Python's rules. */
export function hasDate(dates: unknown, date: unknown): boolean {
  return pyHasKey({ has: (name) => Object.hasOwn(dates as object, name) }, date);
}

/** `_get_flight_instance`: the flight's status on a date, or "Flight <n> not found on date <d>". */
export function getFlightInstance(
  db: SessionDatabase,
  flightNumber: unknown,
  date: unknown,
): Entity {
  const dates = getFlight(db, flightNumber).dates as Record<string, Entity>;
  if (!hasDate(dates, date))
    throw new ToolError(`Flight ${pyStr(flightNumber)} not found on date ${pyStr(date)}`);
  return dates[date as string]!;
}

/** `_search_direct_flight`: available flights on a date, in the database's order (null origin or destination matches any). */
function searchDirect(
  db: SessionDatabase,
  date: unknown,
  origin: unknown,
  destination: unknown,
  leaveAfter: string | null,
): Entity[] {
  const results: Entity[] = [];
  for (const flight of db.values('flights')) {
    // Python's `and` chain short-circuits: `date in dates` is only evaluated for matching routes.
    if (origin !== null && flight.origin !== origin) continue;
    if (destination !== null && flight.destination !== destination) continue;
    const dates = flight.dates as Record<string, Entity>;
    if (!hasDate(dates, date) || dates[date as string]!.status !== 'available') continue;
    if (leaveAfter !== null && !((flight.scheduled_departure_time_est as string) >= leaveAfter))
      continue;
    const instance = dates[date as string]!;
    results.push({
      flight_number: flight.flight_number,
      origin: flight.origin,
      destination: flight.destination,
      status: 'available',
      scheduled_departure_time_est: flight.scheduled_departure_time_est,
      scheduled_arrival_time_est: flight.scheduled_arrival_time_est,
      date: null,
      available_seats: { ...(instance.available_seats as object) },
      prices: { ...(instance.prices as object) },
    });
  }
  return results;
}

/** Python's `int(text)` for a date's day: surrounding spaces and `_` separators allowed, Python's ValueError otherwise. */
function pyInt(text: unknown): number {
  if (typeof text !== 'string')
    throw new ToolError(
      `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(text)}'`,
    );
  if (!/^\s*[+-]?\d+(_\d+)*\s*$/.test(text))
    throw new ToolError(`invalid literal for int() with base 10: ${pyRepr(text)}`);
  return Number(text.replace(/_/g, ''));
}

function searchOneStop(db: SessionDatabase, args: Record<string, unknown>): Entity[][] {
  const pairs: Entity[][] = [];
  for (const first of searchDirect(db, args.date, args.origin, null, null)) {
    first.date = args.date;
    const arrival = first.scheduled_arrival_time_est as string;
    // tau2's next-day date: the day number plus one, not zero-padded ("2024-05-2").
    const date2 = arrival.includes('+1')
      ? `2024-05-${pyInt((args.date as string).slice(-2)) + 1}`
      : args.date;
    for (const second of searchDirect(db, date2, first.destination, args.destination, arrival)) {
      second.date = date2;
      pairs.push([first, second]);
    }
  }
  return pairs;
}

const AIRPORTS: [string, string][] = [
  ['SFO', 'San Francisco'],
  ['JFK', 'New York'],
  ['LAX', 'Los Angeles'],
  ['ORD', 'Chicago'],
  ['DFW', 'Dallas'],
  ['DEN', 'Denver'],
  ['SEA', 'Seattle'],
  ['ATL', 'Atlanta'],
  ['MIA', 'Miami'],
  ['BOS', 'Boston'],
  ['PHX', 'Phoenix'],
  ['IAH', 'Houston'],
  ['LAS', 'Las Vegas'],
  ['MCO', 'Orlando'],
  ['EWR', 'Newark'],
  ['CLT', 'Charlotte'],
  ['MSP', 'Minneapolis'],
  ['DTW', 'Detroit'],
  ['PHL', 'Philadelphia'],
  ['LGA', 'LaGuardia'],
];

/** The airline tools that read (and the two generic ones). */
export const AIRLINE_READ_TOOLS = {
  calculate: {
    kind: 'generic',
    params: ['expression'],
    run: (_db, args) => calculate(args.expression),
  },
  get_reservation_details: {
    kind: 'read',
    params: ['reservation_id'],
    run: (db, args) => ({ value: getReservation(db, args.reservation_id), schema: Reservation }),
  },
  get_user_details: {
    kind: 'read',
    params: ['user_id'],
    run: (db, args) => ({ value: getUser(db, args.user_id), schema: User }),
  },
  list_all_airports: {
    kind: 'read',
    params: [],
    run: () => ({
      value: AIRPORTS.map(([iata, city]) => ({ iata, city })),
      schema: z.array(AirportCode),
    }),
  },
  search_direct_flight: {
    kind: 'read',
    params: ['origin', 'destination', 'date'],
    run: (db, args) => ({
      value: searchDirect(db, args.date, args.origin, args.destination, null),
      schema: z.array(DirectFlight),
    }),
  },
  search_onestop_flight: {
    kind: 'read',
    params: ['origin', 'destination', 'date'],
    run: (db, args) => ({ value: searchOneStop(db, args), schema: z.array(z.array(DirectFlight)) }),
  },
  transfer_to_human_agents: {
    kind: 'generic',
    params: ['summary'],
    run: () => 'Transfer successful',
  },
  get_flight_status: {
    kind: 'read',
    params: ['flight_number', 'date'],
    run: (db, args) => getFlightInstance(db, args.flight_number, args.date).status as string,
  },
} satisfies Record<string, Tau2Tool>;
