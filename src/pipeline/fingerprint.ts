/** Fingerprints that make resume exact: what identifies a prediction and a judgement. */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';
import type { Case } from '../dataset/case.js';
import type { SamplingParams } from '../providers/provider.js';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A prediction is the same work when the case content, repeat, tested model, prompt version and sampling are the same. */
export function predictionFingerprint(parts: {
  case: Case;
  repeat: number;
  model: string;
  promptVersion: string;
  sampling: SamplingParams;
}): string {
  return sha256(
    canonicalJson({
      id: parts.case.id,
      content: parts.case.contentHash,
      repeat: parts.repeat,
      model: parts.model,
      prompt: parts.promptVersion,
      sampling: parts.sampling,
    }),
  ).slice(0, 24);
}

/** A judgement is done when a judgement line exists for this prediction fingerprint, judge and judge version. */
export function judgementKey(predictionFingerprint: string, judge: string): string {
  return `${predictionFingerprint}|${judge}`;
}
