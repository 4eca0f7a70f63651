/**
 * The always-refuse baseline: REJECT on every case, whatever it asks. A floor for refusal metrics,
 * correct only on unsolvable cases.
 */
import { rejectAnswer, type BaselinePlanner } from './baseline.js';

/** Refuses every case without reading it. */
export const refuseBaseline: BaselinePlanner = {
  id: 'refuse',
  description: 'always-refuse baseline: answers REJECT to every case',
  answer: () =>
    rejectAnswer('always-refuse baseline: this planner refuses every case without reading it'),
};
