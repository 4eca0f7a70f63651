/**
 * The two result files of an evaluation run directory, opened through the run-directory core:
 * `predictions.jsonl` and `judgements.jsonl`, append-only, torn lines cut on open, every line
 * read back through its schema in `src/rundir/schemas/` (the same that types it).
 */
import { manifestFileCodec, type Manifest } from './manifest.js';
import type { JudgementLine, PredictionLine } from './records.js';
import type { JsonlStore } from '../rundir/jsonl-store.js';
import { resultLineSchema } from './results-store.js';
import type { ManifestCodec, RunSession } from '../rundir/session.js';

/** The result stores of one run directory. */
export interface ResultStores {
  predictions: JsonlStore<PredictionLine>;
  judgements: JsonlStore<JudgementLine>;
}

/** Schema of a `predictions.jsonl` line. */
export const PREDICTION_LINE = resultLineSchema('predictions');
/** Schema of a `judgements.jsonl` line. */
export const JUDGEMENT_LINE = resultLineSchema('judgements');

/** The codec of an evaluation's `manifest.json`. */
export const RUN_MANIFEST: ManifestCodec<Manifest> = manifestFileCodec;

/** Opens both result stores in `session` (closed with it). */
export function openResultStores(session: Pick<RunSession<unknown>, 'store'>): ResultStores {
  return {
    predictions: session.store('predictions.jsonl', PREDICTION_LINE),
    judgements: session.store('judgements.jsonl', JUDGEMENT_LINE),
  };
}
