/**
 * What to do after a run stopped on a systematic or authentication failure, said so that it works:
 * a run directory keeps its model and base URL (a rerun with another is refused), and failed cases
 * count as finished on resume unless `--retry-errors` sends them again.
 */
import { readManifest } from '../pipeline/manifest.js';

/** The hint for the run directory `outDir`, from what its manifest counted. */
export function resumeHint(outDir: string): string {
  let counts: { ok: number; error: number; parse_error: number } | undefined;
  try {
    counts = readManifest(outDir)?.counts.predictions;
  } catch {
    counts = undefined;
  }
  const answered = (counts?.ok ?? 0) + (counts?.parse_error ?? 0);
  const failed = counts?.error ?? 0;
  if (answered === 0)
    return `no case was answered, so ${outDir} holds nothing to keep: fix the cause and rerun with a new --out DIR, or delete ${outDir} first (a run directory keeps its model and base URL, so a rerun into it with another --base-url is refused)`;
  const retry = failed > 0 ? `add --retry-errors to send the ${failed} failed case(s) again; ` : '';
  return `the ${answered} answered case(s) are kept in ${outDir}: fix the cause and rerun the same command to resume (${retry}another --base-url or model needs a new --out DIR)`;
}
