/**
 * The shapes the page script reads: the compact index and config blocks of the page and the
 * details chunks, typed from the Node side that writes them (type-only imports: nothing of the
 * Node code reaches the bundle).
 */
import type { CaseDetail, RowDetail } from '../../case-details.js';
import type { CaseBrowserData, MediaItem } from '../../cases.js';
import type { RefinementView } from '../../refinement-view.js';

/** The `apb-index` block: lookup lists, compact columns and the details chunk sizes. */
export type PageIndex = Pick<
  CaseBrowserData,
  'models' | 'judges' | 'splits' | 'behaviors' | 'stages' | 'methods' | 'cases' | 'rows'
> & { chunks: { rows: number; cases: number } };

/** The viewer's live block (null in a report file). */
export interface LiveConfig {
  statusUrl: string;
  version: string;
  intervalMs?: number;
  historyUrl?: string | null;
}

/** The `apb-config` block. */
export interface PageConfig {
  live?: LiveConfig | null;
}

/** What `/status` of the viewer answers. */
export interface LiveStatus {
  version: string;
  judgements: number;
  running: boolean;
  progress: { done: number; total: number | null; eta_seconds: number | null } | null;
}

/** One answer's details as the chunks hold them. */
export type AnswerDetail = RowDetail & { refinement: RefinementView | null };

export type { CaseDetail, MediaItem };
