/** The viewer history's entry type (pure), shared by APB runs (history.ts) and exec runs (exec-history.ts). */

/** One run directory of the history. */
export interface HistoryEntry {
  dir: string;
  /** Set for a directory `apb exec` wrote (its progress counts executions, its headline is a mean reward). */
  kind?: 'exec';
  model: string | null;
  judge: string | null;
  /** The dataset's folder name and the first characters of its content hash. */
  data: string | null;
  created: string | null;
  status: string;
  /** Judgements on disk, the total the run selected (when its manifest says), and the estimated seconds left. */
  done: number;
  total: number | null;
  etaSeconds: number | null;
  /** Holistic CR (%) from scores.json, else the first Table 1 correctness rate it has; an exec run's best mean reward (0–1). */
  headline: { label: string; value: number; unit?: 'reward' } | null;
}
