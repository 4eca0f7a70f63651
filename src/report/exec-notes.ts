/**
 * The setup lines every exec report and summary states beside Table 3: who played and judged (tested
 * model, user simulator, refine critic, plan judge, NL-assertion judge), what the planner saw, the
 * do-nothing floor, and which domains a pooled `tau2` row pools. Pure, from `exec-scores.json`.
 */
import type { ExecScores } from '../execution/exec-scores.js';
import { fixed } from './numbers.js';

/** What the planner of plan-first and refine is given (execution/plans.ts). */
export const PLANNER_CONTEXT_NOTE =
  "Planner context: the plan of plan-first and refine is written from the user's first message, the policy and the agent's tools only — not the task's user scenario, which the rest of the conversation reveals. The paper does not say what its planner saw.";

const list = (values: readonly string[] | undefined, none: string) =>
  values && values.length > 0 ? values.join(', ') : none;

/** Who played and judged the run's executions. */
export function playersNote(scores: ExecScores): string | null {
  const players = scores.players;
  if (!players) return null;
  const agents = players.agents;
  const critics = players.critics.map((critic) =>
    agents.includes(critic) ? `${critic} (the tested model itself)` : critic,
  );
  return [
    `Players: tested model (agent, planner, reviser) ${list(agents, 'none')}`,
    `user simulator ${list(players.user_models, 'none')}`,
    `refine critic ${list(critics, 'none (no refine run)')}`,
    `plan judge (APB CR and grade) ${list(players.plan_judges, 'none (no plan judged)')}`,
    `NL-assertion judge ${list(players.nl_judges, 'none (NL assertions left unjudged)')}.`,
  ].join('; ');
}

/** The floor of each environment: what the do-nothing agent scores, and that it is scripted. */
export function floorNote(scores: ExecScores, env?: string): string | null {
  const floors = scores.tables.table3.filter(
    (row) => row.floor && (env === undefined || row.env === env || env === 'tau2'),
  );
  if (floors.length === 0) return null;
  const parts = floors.map((row) => {
    const figures = row.detail.modes.direct;
    const open = figures && figures.unevaluated > 0 ? `, ${figures.unevaluated} unevaluated` : '';
    return `${row.env} ${fixed(row.direct, 2)} (${row.metric}, n=${figures?.runs ?? 0}${open})`;
  });
  return `Floor: a do-nothing agent (one fixed reply, no tool call; scripted like a replay, no model called) scores ${parts.join('; ')}. A mean is worth what it adds above its environment's floor.`;
}

/** The domains a pooled tau2 row pools, with their task counts. */
export function pooledNote(scores: ExecScores): string | null {
  const pooled = scores.tables.table3.find((row) => row.domains && !row.floor);
  if (!pooled?.domains) return null;
  const domains = Object.entries(pooled.domains).map(([domain, n]) => `${domain} n=${n}`);
  const missing = ['retail', 'airline', 'telecom'].filter((domain) => !(domain in pooled.domains!));
  return `The tau2 row pools ${domains.join(', ')} (${pooled.n} tasks; the paper's τ²-bench row pools 200)${missing.length > 0 ? `; not run: ${missing.join(', ')}` : ''}.`;
}
