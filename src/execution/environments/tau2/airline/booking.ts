/**
 * tau2's `book_reservation`, in its order: arguments turned into models, the user and a new
 * reservation id (HATHAT, HATHAU, HATHAV) found, the `Reservation` validated, flights priced and
 * checked, payments checked against the total, and only then the payment methods charged, the seats
 * taken and the reservation stored.
 */
import type { Entity, SessionDatabase } from '../database.js';
import { validateModel } from '../pydantic.js';
import { pyRepr, pyStr, ToolError } from '../python.js';
import { getFlight, getFlightInstance, getUser } from './lookups.js';
import { FlightInfo, Passenger, Payment, Reservation } from './model.js';
import { asModels, attribute } from './argument-models.js';

const NEW_RESERVATION_IDS = ['HATHAT', 'HATHAU', 'HATHAV'];
const NOW = '2024-05-15T15:00:00';

function checkPayments(user: Entity, payments: Entity[]): void {
  const methods = user.payment_methods as Record<string, Entity>;
  for (const payment of payments) {
    const id = payment.payment_id as string;
    if (!Object.hasOwn(methods, id)) throw new ToolError(`Payment method ${id} not found`);
    const method = methods[id]!;
    if (
      (method.source === 'gift_card' || method.source === 'certificate') &&
      (method.amount as number) < (payment.amount as number)
    )
      throw new ToolError(`Not enough balance in payment method ${id}`);
  }
}

function charge(db: SessionDatabase, userId: string, payments: Entity[]): void {
  const methods = getUser(db, userId, true).payment_methods as Record<string, Entity>;
  for (const payment of payments) {
    const id = payment.payment_id as string;
    // A certificate named twice was removed by the first: Python's KeyError, after the first charges.
    if (!Object.hasOwn(methods, id)) throw new ToolError(pyRepr(id));
    const method = methods[id]!;
    if (method.source === 'gift_card')
      method.amount = (method.amount as number) - (payment.amount as number);
    else if (method.source === 'certificate') delete methods[id];
  }
}

/** Each flight's price in the cabin, checked open and with enough seats, appended to the reservation's flights. */
function bookFlights(
  db: SessionDatabase,
  flights: ReturnType<typeof asModels>,
  cabin: string,
  count: number,
  booked: Entity[],
): { taken: [string, string][]; price: number } {
  const taken: [string, string][] = [];
  let price = 0;
  for (const item of flights.items) {
    const number = attribute(item, flights.validated, 'flight_number') as string;
    const date = attribute(item, flights.validated, 'date') as string;
    const flight = getFlight(db, number);
    const instance = getFlightInstance(db, number, date);
    if (instance.status !== 'available')
      throw new ToolError(`Flight ${pyStr(number)} not available on date ${pyStr(date)}`);
    if ((instance.available_seats as Record<string, number>)[cabin]! < count)
      throw new ToolError(`Not enough seats on flight ${pyStr(number)}`);
    const each = (instance.prices as Record<string, number>)[cabin]!;
    booked.push({
      flight_number: number,
      origin: flight.origin,
      destination: flight.destination,
      date,
      price: each,
    });
    taken.push([number, date]);
    price += each * count;
  }
  return { taken, price };
}

/** The booked seats leave each flight's availability. */
function takeSeats(
  db: SessionDatabase,
  taken: readonly [string, string][],
  cabin: string,
  count: number,
): void {
  for (const [number, date] of taken) {
    const seats = (db.write('flights', number).dates as Record<string, Entity>)[date]!
      .available_seats as Record<string, number>;
    seats[cabin] = seats[cabin]! - count;
  }
}

/** `book_reservation(user_id, origin, destination, flight_type, cabin, flights, passengers, payment_methods, total_baggages, nonfree_baggages, insurance)`. */
export function bookReservation(db: SessionDatabase, args: Record<string, unknown>) {
  const flights = asModels(args.flights, 'FlightInfo', FlightInfo);
  const passengers = asModels(args.passengers, 'Passenger', Passenger);
  const payments = asModels(args.payment_methods, 'Payment', Payment);
  const user = getUser(db, args.user_id);
  const reservationId = NEW_RESERVATION_IDS.find((id) => !db.has('reservations', id));
  if (!reservationId) throw new ToolError('Too many reservations');
  const reservation = validateModel('Reservation', Reservation, {
    reservation_id: reservationId,
    user_id: args.user_id,
    origin: args.origin,
    destination: args.destination,
    flight_type: args.flight_type,
    cabin: args.cabin,
    flights: [],
    passengers: passengers.validated ? passengers.items : passengers.raw,
    payment_history: payments.validated ? payments.items : payments.raw,
    created_at: NOW,
    total_baggages: args.total_baggages,
    nonfree_baggages: args.nonfree_baggages,
    insurance: args.insurance,
  });
  // Past the Reservation's validation, every passenger and payment is a model.
  const count = passengers.items.length;
  const cabin = args.cabin as string;
  const { taken, price } = bookFlights(db, flights, cabin, count, reservation.flights as Entity[]);
  let totalPrice = price;
  if (args.insurance === 'yes') totalPrice += 30 * count;
  // tau2 adds the raw argument: a numeric string passes the Reservation's validation, then fails here.
  if (typeof args.nonfree_baggages === 'string')
    throw new ToolError("unsupported operand type(s) for +=: 'int' and 'str'");
  totalPrice += 50 * Number(args.nonfree_baggages);
  const paymentList = payments.items as Entity[];
  checkPayments(user, paymentList);
  const totalPayment = paymentList.reduce((sum, payment) => sum + (payment.amount as number), 0);
  if (totalPayment !== totalPrice)
    throw new ToolError(
      `Payment amount does not add up, total price is ${totalPrice}, but paid ${totalPayment}`,
    );
  charge(db, args.user_id as string, paymentList);
  takeSeats(db, taken, cabin, count);
  db.insert('reservations', reservationId, reservation);
  (getUser(db, args.user_id, true).reservations as string[]).push(reservationId);
  return { value: reservation, schema: Reservation };
}
