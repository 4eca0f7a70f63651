/**
 * The airline database's data model (tau2's `airline/data_model.py`) as zod schemas: field order
 * (a subclass's own fields after its base's), `float` vs `int` (gift-card and certificate amounts
 * are floats, payments and prices ints), literals, and null defaults (a reservation's `status`, an
 * address's `address2`). The class names of the models built from arguments are their descriptions.
 */
import { z } from 'zod';

const text = z.string();
const int = z.int();
const float = z.number();

export const CABINS = ['business', 'economy', 'basic_economy'] as const;
export const FlightType = z.enum(['round_trip', 'one_way']);
export const CabinClass = z.enum(CABINS);
export const Insurance = z.enum(['yes', 'no']);

export const AirportCode = z.object({ iata: text, city: text });
export const Name = z.object({ first_name: text, last_name: text });
export const Address = z.object({
  address1: text,
  address2: text.nullable().default(null),
  city: text,
  country: text,
  state: text,
  zip: text,
});
export const Payment = z.object({ payment_id: text, amount: int }).describe('Payment');

export const CreditCard = z.object({
  source: z.literal('credit_card'),
  id: text,
  brand: text,
  last_four: text,
});
export const GiftCard = z.object({ source: z.literal('gift_card'), id: text, amount: float });
export const Certificate = z.object({ source: z.literal('certificate'), id: text, amount: float });
export const PaymentMethod = z.discriminatedUnion('source', [CreditCard, GiftCard, Certificate]);

export const Passenger = z
  .object({ first_name: text, last_name: text, dob: text })
  .describe('Passenger');

const seats = z.record(text, int);
export const FlightDateStatusAvailable = z.object({
  status: z.literal('available'),
  available_seats: seats,
  prices: seats,
});
const Landed = z.object({
  status: z.literal('landed'),
  actual_departure_time_est: text,
  actual_arrival_time_est: text,
});
const Cancelled = z.object({ status: z.literal('cancelled') });
const Delayed = z.object({
  status: z.literal('delayed'),
  estimated_departure_time_est: text,
  estimated_arrival_time_est: text,
});
const Flying = z.object({
  status: z.literal('flying'),
  actual_departure_time_est: text,
  estimated_arrival_time_est: text,
});
const OnTime = z.object({
  status: z.literal('on time'),
  estimated_departure_time_est: text,
  estimated_arrival_time_est: text,
});
export const FlightDateStatus = z.discriminatedUnion('status', [
  FlightDateStatusAvailable,
  Landed,
  Cancelled,
  Delayed,
  Flying,
  OnTime,
]);

export const Flight = z.object({
  flight_number: text,
  origin: text,
  destination: text,
  scheduled_departure_time_est: text,
  scheduled_arrival_time_est: text,
  dates: z.record(text, FlightDateStatus),
});

export const DirectFlight = z.object({
  flight_number: text,
  origin: text,
  destination: text,
  status: z.literal('available'),
  scheduled_departure_time_est: text,
  scheduled_arrival_time_est: text,
  date: text.nullable().default(null),
  available_seats: seats,
  prices: seats,
});

export const ReservationFlight = z.object({
  flight_number: text,
  origin: text,
  destination: text,
  date: text,
  price: int,
});
export const FlightInfo = z.object({ flight_number: text, date: text }).describe('FlightInfo');

export const User = z.object({
  user_id: text,
  name: Name,
  address: Address,
  email: text,
  dob: text,
  payment_methods: z.record(text, PaymentMethod),
  saved_passengers: z.array(Passenger),
  membership: z.enum(['gold', 'silver', 'regular']),
  reservations: z.array(text),
});

export const Reservation = z.object({
  reservation_id: text,
  user_id: text,
  origin: text,
  destination: text,
  flight_type: FlightType,
  cabin: CabinClass,
  flights: z.array(ReservationFlight),
  passengers: z.array(Passenger),
  payment_history: z.array(Payment),
  created_at: text,
  total_baggages: int,
  nonfree_baggages: int,
  insurance: Insurance,
  status: z.literal('cancelled').nullable().default(null),
});

/** The whole airline database (db.json). */
export const AirlineDb = z.object({
  flights: z.record(text, Flight),
  users: z.record(text, User),
  reservations: z.record(text, Reservation),
});
