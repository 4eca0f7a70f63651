/**
 * How ids read in human-facing reports: baselines are marked as baselines and the `rules` judge as
 * structural, so neither is ever mistaken for a model or for the paper's LLM judge. JSON keeps raw ids.
 */

/** `baseline:heuristic` → `baseline:heuristic (baseline, not a model)`; code specs marked as code; model ids unchanged. */
export function modelLabel(id: string): string {
  if (id.startsWith('baseline:')) return `${id} (baseline, not a model)`;
  // A planner or agent as code (providers/code/) is named as what it is, never as a model.
  const form = /^(module|cmd|http):/.exec(id)?.[1];
  return form ? `${id} (planner as code, ${form})` : id;
}

/** `rules` → `rules (structural judge)`, also inside a panel's id; LLM judge ids unchanged. */
export function judgeLabel(id: string): string {
  return id.replace(/(^|[(|+\s])rules(?=$|[)|+\s])/g, '$1rules (structural judge)');
}

/** What each baseline is, in the notes of a report it appears in. */
const BASELINE_NOTES: readonly (readonly [string, string])[] = [
  ['baseline:oracle', 'replays the reference (a sanity ceiling)'],
  ['baseline:heuristic', 'is a lexical-retrieval planner (a floor)'],
  ['baseline:refuse', 'always refuses'],
];

/** `a`, `a and b`, `a, b and c`. */
function sentenceList(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Notes that explain the labels, for the ids present in a report (only the baselines that ran). */
export function roleNotes(models: readonly string[], judges: readonly string[]): string[] {
  const notes: string[] = [];
  if (judges.some((judge) => judgeLabel(judge) !== judge)) {
    notes.push(
      "The rules judge is a structural judge built from deterministic checks (docs/rules-judge.md), not the paper's LLM judge: its correctness rates and grades are not comparable with the paper's tables.",
    );
  }
  const baselines = BASELINE_NOTES.filter(([id]) => models.includes(id)).map(
    ([id, what]) => `${id} ${what}`,
  );
  if (baselines.length > 0)
    notes.push(
      `${sentenceList(baselines)}: ${baselines.length === 1 ? 'a named non-LLM planner, not a model' : 'named non-LLM planners, not models'}.`,
    );
  return notes;
}

/** The paper's label of a refinement method: Self_R / Critic_R, (+) with the taxonomy, (−) without; rounds beyond one added. */
export function methodLabel(row: { mode: string; taxonomy: boolean; rounds?: number }): string {
  const rounds = (row.rounds ?? 1) > 1 ? ` ×${row.rounds} rounds` : '';
  return `${row.mode === 'self' ? 'Self_R' : 'Critic_R'}${row.taxonomy ? '+' : '−'}${rounds}`;
}
