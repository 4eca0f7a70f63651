/** The BASELINES registry: named non-LLM planners, reported as baselines and never as models. */
import type { BaselinePlanner } from './baseline.js';
import { heuristicBaseline } from './heuristic.js';
import { oracleBaseline } from './oracle.js';
import { refuseBaseline } from './refuse.js';

/** Every baseline planner, keyed by its id. */
export const BASELINES = {
  oracle: oracleBaseline,
  heuristic: heuristicBaseline,
  refuse: refuseBaseline,
} satisfies Record<string, BaselinePlanner>;

/** A baseline id. */
export type BaselineId = keyof typeof BASELINES;

export type { BaselinePlanner } from './baseline.js';
