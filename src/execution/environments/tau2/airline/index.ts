/** `tau2:airline`: tau2-bench's airline domain (bookings, changes, cancellations) with every tool of `AirlineTools`. */
import type { Environment } from '../../../environment.js';
import { createTau2Environment } from '../domain.js';
import { AIRLINE_READ_TOOLS } from './lookups.js';
import { AirlineDb } from './model.js';
import { AIRLINE_WRITE_TOOLS } from './writes.js';

/** Loads the airline environment (db.json is read and validated here: call once and keep it). */
export function createAirlineEnvironment(): Environment {
  return createTau2Environment({
    domain: 'airline',
    database: AirlineDb,
    toolkit: {
      className: 'AirlineTools',
      tools: { ...AIRLINE_READ_TOOLS, ...AIRLINE_WRITE_TOOLS },
    },
  });
}
