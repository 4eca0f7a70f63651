/**
 * The airline tools that change the database, step for step as tau2's `AirlineTools` does them:
 * models built from arguments validated as pydantic would (`FlightInfo(**flight)`, `Reservation(…)`),
 * raw arguments kept where tau2 assigns them unvalidated, and tau2's quirks kept (a cancellation
 * releases no seat, a flight change books none; a payment list naming one certificate twice fails
 * half-way with Python's KeyError text).
 */
import type { Entity, SessionDatabase } from '../database.js';
import { validateModel } from '../pydantic.js';
import { pyHasKey, pyIter, pyLen, pyRepr, pyStr, pyTypeName, ToolError } from '../python.js';
import type { Tau2Tool } from '../toolkit.js';
import { getFlight, getFlightInstance, getReservation, getUser } from './lookups.js';
import { Certificate, FlightInfo, Passenger, Payment, Reservation } from './model.js';
import { bookReservation } from './booking.js';
import { asModels, attribute } from './argument-models.js';

/** `a - b` on raw arguments: numbers (booleans count) only, Python's TypeError otherwise. */
export function pySubtract(a: unknown, b: unknown): number {
  const numeric = (value: unknown) => typeof value === 'number' || typeof value === 'boolean';
  if (!numeric(a) || !numeric(b))
    throw new ToolError(
      `unsupported operand type(s) for -: '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
    );
  return Number(a) - Number(b);
}

/** `_payment_for_update`: checks the payment method, deducts a gift card, returns the payment (none for 0). */
export function paymentForUpdate(
  db: SessionDatabase,
  userId: string,
  paymentId: unknown,
  totalPrice: number,
): Entity | null {
  const user = getUser(db, userId);
  const methods = user.payment_methods as Record<string, Entity>;
  if (typeof paymentId !== 'string' || !Object.hasOwn(methods, paymentId)) {
    if (Array.isArray(paymentId) || (paymentId !== null && typeof paymentId === 'object'))
      throw new ToolError(`unhashable type: '${pyTypeName(paymentId)}'`);
    throw new ToolError('Payment method not found');
  }
  const method = methods[paymentId]!;
  if (method.source === 'certificate')
    throw new ToolError('Certificate cannot be used to update reservation');
  if (method.source === 'gift_card' && (method.amount as number) < totalPrice)
    throw new ToolError('Gift card balance is not enough');
  if (method.source === 'gift_card') {
    const own = (getUser(db, userId, true).payment_methods as Record<string, Entity>)[paymentId]!;
    own.amount = (own.amount as number) - totalPrice;
  }
  return totalPrice !== 0
    ? validateModel('Payment', Payment, { payment_id: paymentId, amount: totalPrice })
    : null;
}

function cancelReservation(db: SessionDatabase, args: Record<string, unknown>) {
  const reservation = getReservation(db, args.reservation_id, true);
  const history = reservation.payment_history as Entity[];
  const refunds = history.map((payment) => ({
    payment_id: payment.payment_id,
    amount: -(payment.amount as number),
  }));
  history.push(...refunds);
  reservation.status = 'cancelled';
  return { value: reservation, schema: Reservation };
}

function updateReservationBaggages(db: SessionDatabase, args: Record<string, unknown>) {
  const reservation = getReservation(db, args.reservation_id);
  getUser(db, reservation.user_id);
  const totalPrice =
    50 * Math.max(0, pySubtract(args.nonfree_baggages, reservation.nonfree_baggages));
  const payment = paymentForUpdate(db, reservation.user_id as string, args.payment_id, totalPrice);
  const own = getReservation(db, args.reservation_id, true);
  if (payment) (own.payment_history as Entity[]).push(payment);
  // tau2 assigns these unvalidated: whatever the agent sent is stored.
  Object.assign(own, {
    total_baggages: args.total_baggages,
    nonfree_baggages: args.nonfree_baggages,
  });
  return { value: own, schema: Reservation };
}

function updateReservationFlights(db: SessionDatabase, args: Record<string, unknown>) {
  const flights = asModels(args.flights, 'FlightInfo', FlightInfo);
  const reservation = getReservation(db, args.reservation_id);
  getUser(db, reservation.user_id);
  const passengers = (reservation.passengers as unknown[]).length;
  const current = reservation.flights as Entity[];
  let totalPrice = 0;
  const chosen: Entity[] = [];
  for (const item of flights.items) {
    const number = attribute(item, flights.validated, 'flight_number');
    const date = attribute(item, flights.validated, 'date');
    const kept = current.find(
      (flight) =>
        flight.flight_number === number && flight.date === date && args.cabin === reservation.cabin,
    );
    if (kept) {
      totalPrice += (kept.price as number) * passengers;
      chosen.push(kept);
      continue;
    }
    const flight = getFlight(db, number);
    const instance = getFlightInstance(db, number, date);
    if (instance.status !== 'available')
      throw new ToolError(`Flight ${pyStr(number)} not available on date ${pyStr(date)}`);
    const seats = instance.available_seats as Record<string, number>;
    // An unknown cabin is Python's KeyError, whose text is the key's repr.
    if (!pyHasKey({ has: (name) => Object.hasOwn(seats, name) }, args.cabin))
      throw new ToolError(pyRepr(args.cabin));
    if (seats[args.cabin as string]! < passengers)
      throw new ToolError(`Not enough seats on flight ${pyStr(number)}`);
    const price = (instance.prices as Record<string, number>)[args.cabin as string]!;
    chosen.push({
      flight_number: number,
      origin: flight.origin,
      destination: flight.destination,
      date,
      price,
    });
    totalPrice += price * passengers;
  }
  totalPrice -= current.reduce((sum, flight) => sum + (flight.price as number), 0) * passengers;
  const payment = paymentForUpdate(db, reservation.user_id as string, args.payment_id, totalPrice);
  const own = getReservation(db, args.reservation_id, true);
  if (payment) (own.payment_history as Entity[]).push(payment);
  Object.assign(own, { flights: structuredClone(chosen), cabin: args.cabin });
  return { value: own, schema: Reservation };
}

function updateReservationPassengers(db: SessionDatabase, args: Record<string, unknown>) {
  const passengers = asModels(args.passengers, 'Passenger', Passenger);
  const reservation = getReservation(db, args.reservation_id);
  if (pyLen(flattenRaw(passengers)) !== (reservation.passengers as unknown[]).length)
    throw new ToolError('Number of passengers does not match');
  const own = getReservation(db, args.reservation_id, true);
  own.passengers = structuredClone(passengers.validated ? passengers.items : passengers.raw);
  return { value: own, schema: Reservation };
}

/** The value `len()` sees: the converted list, or the argument as given. */
function flattenRaw(converted: { items: unknown[]; validated: boolean; raw: unknown }): unknown {
  return converted.validated ? converted.items : converted.raw;
}

function sendCertificate(db: SessionDatabase, args: Record<string, unknown>) {
  const user = getUser(db, args.user_id);
  const methods = user.payment_methods as Record<string, Entity>;
  for (const id of [3221322, 3221323, 3221324]) {
    const paymentId = `certificate_${id}`;
    if (Object.hasOwn(methods, paymentId)) continue;
    const certificate = validateModel('Certificate', Certificate, {
      id: paymentId,
      amount: args.amount,
      source: 'certificate',
    });
    (getUser(db, args.user_id, true).payment_methods as Record<string, Entity>)[paymentId] =
      certificate;
    return `Certificate ${paymentId} added to user ${pyStr(args.user_id)} with amount ${pyStr(args.amount)}.`;
  }
  throw new ToolError('Too many certificates');
}

/** The airline tools that write. */
export const AIRLINE_WRITE_TOOLS = {
  book_reservation: {
    kind: 'write',
    params: [
      'user_id',
      'origin',
      'destination',
      'flight_type',
      'cabin',
      'flights',
      'passengers',
      'payment_methods',
      'total_baggages',
      'nonfree_baggages',
      'insurance',
    ],
    run: bookReservation,
  },
  cancel_reservation: { kind: 'write', params: ['reservation_id'], run: cancelReservation },
  send_certificate: { kind: 'write', params: ['user_id', 'amount'], run: sendCertificate },
  update_reservation_baggages: {
    kind: 'write',
    params: ['reservation_id', 'total_baggages', 'nonfree_baggages', 'payment_id'],
    run: updateReservationBaggages,
  },
  update_reservation_flights: {
    kind: 'write',
    params: ['reservation_id', 'cabin', 'flights', 'payment_id'],
    run: updateReservationFlights,
  },
  update_reservation_passengers: {
    kind: 'write',
    params: ['reservation_id', 'passengers'],
    run: updateReservationPassengers,
  },
} satisfies Record<string, Tau2Tool>;
