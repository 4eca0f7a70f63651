/** `RunReporter`: optional hooks through which a run reports progress (the CLI progress line is one implementation). */

/** One (case, repeat) has an outcome. */
export interface CaseEndEvent {
  id: string;
  split: string;
  repeat: number;
  plannerStatus: 'ok' | 'error' | 'parse_error';
  judgeStatus: 'ok' | 'judge_error';
  correct: boolean;
}

export interface RunStartEvent {
  dir: string;
  /** (case, repeat) pairs selected. */
  total: number;
  /** Pairs already finished in the directory (resume). */
  alreadyDone: number;
  invalidRecords: number;
}

export interface RunEndEvent {
  dir: string;
  finished: number;
  interrupted: boolean;
}

export interface RunReporter {
  onRunStart?(event: RunStartEvent): void;
  onCaseEnd?(event: CaseEndEvent): void;
  onWarning?(message: string): void;
  onRunEnd?(event: RunEndEvent): void;
}
