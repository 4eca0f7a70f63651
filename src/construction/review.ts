/**
 * The human-verification queue of B.2's last stage: `check` writes one line per kept record to
 * `review.jsonl` with decision `pending`; a reviewer sets `accepted`, `rejected` or `edited`
 * (with the corrected record under `record`), and every later step reads the decisions back.
 */
import { z } from 'zod';
import type { InputIssue } from '../errors.js';
import { SourceRecordSchema, type SourceRecord } from './source-record.js';
import type { Skip } from './step.js';

/** What a reviewer may decide about a record (`pending` until someone does). */
export const REVIEW_DECISIONS = ['pending', 'accepted', 'rejected', 'edited'] as const;

/** One line of `review.jsonl`. */
export const ReviewLineSchema = z
  .object({
    id: z.string().min(1),
    decision: z.enum(REVIEW_DECISIONS),
    note: z.string().default(''),
    /** What the automatic stages found, for the reviewer (not read back). */
    findings: z.array(z.string()).default([]),
    /** The corrected record, required when the decision is `edited`. */
    record: z.unknown().optional(),
  })
  .strict();
export type ReviewLine = z.infer<typeof ReviewLineSchema>;

/** The queue line of a record that passed the automatic stages. */
export function pendingReview(record: SourceRecord, findings: string[]): ReviewLine {
  return { id: record.id, decision: 'pending', note: '', findings };
}

/** How the review went, for the step summary. */
export interface ReviewSummary {
  accepted: number;
  rejected: number;
  edited: number;
  pending: number;
  /** Whether unreviewed (pending) records were left out, and why: asked, or by default once a reviewer has decided anything. */
  reviewed_only: boolean;
  why: string;
}

/**
 * Whether pending records are left out: as asked, else by default once the review has begun (any
 * decision other than pending) — a half-reviewed queue must not mix checked and unchecked records
 * silently. A queue nobody has touched yet keeps every record, and the summary says so.
 */
export function reviewedOnlyFor(
  asked: boolean | undefined,
  lines: ReadonlyArray<{ value: ReviewLine }>,
): { reviewedOnly: boolean; why: string } {
  if (asked !== undefined)
    return { reviewedOnly: asked, why: asked ? 'reviewed only (asked)' : 'every record (asked)' };
  const begun = lines.some((entry) => entry.value.decision !== 'pending');
  return begun
    ? { reviewedOnly: true, why: 'reviewed only (default once review decisions exist)' }
    : {
        reviewedOnly: false,
        why: 'every record: no review decision yet, so unreviewed records are used',
      };
}

/** The corrected record of an `edited` decision, or null with its issues (invalid, or another id). */
function editedRecord(
  record: SourceRecord,
  entry: { line: number; value: ReviewLine },
  file: string,
  issues: InputIssue[],
): SourceRecord | null {
  const parsed = SourceRecordSchema.safeParse(entry.value.record);
  if (!parsed.success) {
    for (const item of parsed.error.issues)
      issues.push({
        file,
        line: entry.line,
        field: ['record', ...item.path.map(String)].join('.'),
        message: item.message,
      });
    return null;
  }
  if (parsed.data.id === record.id) return parsed.data;
  issues.push({
    file,
    line: entry.line,
    field: 'record.id',
    message: `an edited record must keep its id "${record.id}"`,
  });
  return null;
}

/** Records after review: rejected ones dropped (as skips), edited ones replaced; pending ones dropped when `reviewedOnlyFor` says so. */
export function applyReview(
  records: readonly SourceRecord[],
  lines: ReadonlyArray<{ line: number; value: ReviewLine }>,
  options: { file: string; reviewedOnly?: boolean },
): { records: SourceRecord[]; skipped: Skip[]; issues: InputIssue[]; summary: ReviewSummary } {
  const issues: InputIssue[] = [];
  const mode = reviewedOnlyFor(options.reviewedOnly, lines);
  const decisions = new Map<string, { line: number; value: ReviewLine }>();
  for (const entry of lines) decisions.set(entry.value.id, entry);
  const summary: ReviewSummary = {
    accepted: 0,
    rejected: 0,
    edited: 0,
    pending: 0,
    reviewed_only: mode.reviewedOnly,
    why: mode.why,
  };
  const kept: SourceRecord[] = [];
  const skipped: Skip[] = [];
  for (const record of records) {
    const entry = decisions.get(record.id);
    const decision = entry?.value.decision ?? 'pending';
    summary[decision] += 1;
    if (decision === 'rejected')
      skipped.push({
        step: 'check',
        parent_id: record.id,
        reason: `rejected in review${entry?.value.note ? `: ${entry.value.note}` : ''}`,
      });
    else if (decision === 'pending' && mode.reviewedOnly)
      skipped.push({
        step: 'check',
        parent_id: record.id,
        reason: `not reviewed yet (${mode.why})`,
      });
    else if (decision === 'edited') {
      const edited = editedRecord(record, entry!, options.file, issues);
      if (edited) kept.push(edited);
    } else kept.push(record);
  }
  const known = new Set(records.map((record) => record.id));
  for (const [id, entry] of decisions) {
    if (!known.has(id))
      issues.push({
        file: options.file,
        line: entry.line,
        field: 'id',
        message: `no source record "${id}"`,
      });
  }
  return { records: kept, skipped, issues, summary };
}
