/**
 * How ids read in human-facing reports: baselines are marked as baselines and the `rules` judge as
 * structural, so neither is ever mistaken for a model or for the paper's LLM judge. JSON keeps raw ids.
 */

/** `baseline:heuristic` → `baseline:heuristic (baseline, not a model)`; model ids unchanged. */
export function modelLabel(id: string): string {
  return id.startsWith('baseline:') ? `${id} (baseline, not a model)` : id;
}

/** `rules` → `rules (structural judge)`, also inside a panel's id; LLM judge ids unchanged. */
export function judgeLabel(id: string): string {
  return id.replace(/(^|[(|+\s])rules(?=$|[)|+\s])/g, '$1rules (structural judge)');
}

/** Notes that explain the labels, for the ids present in a report. */
export function roleNotes(models: readonly string[], judges: readonly string[]): string[] {
  const notes: string[] = [];
  if (judges.some((judge) => judgeLabel(judge) !== judge)) {
    notes.push('The rules judge is a structural judge built from deterministic checks (docs/rules-judge.md), not the paper\'s LLM judge: its correctness rates and grades are not comparable with the paper\'s tables.');
  }
  if (models.some((model) => model.startsWith('baseline:'))) {
    notes.push('baseline:oracle replays the reference (a sanity ceiling), baseline:heuristic is a lexical-retrieval planner (a floor) and baseline:refuse always refuses: named non-LLM planners, not models.');
  }
  return notes;
}

/** The paper's label of a refinement method: Self_R / Critic_R, (+) with the taxonomy, (−) without; rounds beyond one added. */
export function methodLabel(row: { mode: string; taxonomy: boolean; rounds?: number }): string {
  const rounds = (row.rounds ?? 1) > 1 ? ` ×${row.rounds} rounds` : '';
  return `${row.mode === 'self' ? 'Self_R' : 'Critic_R'}${row.taxonomy ? '+' : '−'}${rounds}`;
}
