/** Fingerprints that make resume exact: what identifies a prediction and a judgement. */
import { createHash } from 'node:crypto';
import type { Case } from '../dataset/case.js';
import type { SamplingParams } from '../providers/provider.js';

/** Canonical JSON: object keys sorted, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A prediction is the same work when the case content, repeat, tested model, prompt version and sampling are the same. */
export function predictionFingerprint(parts: { case: Case; repeat: number; model: string; promptVersion: string; sampling: SamplingParams }): string {
  return sha256(
    canonicalJson({ id: parts.case.id, content: parts.case.contentHash, repeat: parts.repeat, model: parts.model, prompt: parts.promptVersion, sampling: parts.sampling }),
  ).slice(0, 24);
}

/** A judgement is done when a judgement line exists for this prediction fingerprint, judge and judge version. */
export function judgementKey(predictionFingerprint: string, judge: string): string {
  return `${predictionFingerprint}|${judge}`;
}
