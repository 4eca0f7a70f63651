/** `tau2:retail`: tau2-bench's retail domain (orders, exchanges, returns) with every tool of `RetailTools`. */
import type { Environment } from '../../../environment.js';
import { createTau2Environment } from '../domain.js';
import { RETAIL_READ_TOOLS } from './lookups.js';
import { RetailDb } from './model.js';
import { RETAIL_WRITE_TOOLS } from './writes.js';

/** Loads the retail environment (db.json is read and validated here: call once and keep it). */
export function createRetailEnvironment(): Environment {
  return createTau2Environment({
    domain: 'retail',
    database: RetailDb,
    toolkit: { className: 'RetailTools', tools: { ...RETAIL_READ_TOOLS, ...RETAIL_WRITE_TOOLS } },
  });
}
