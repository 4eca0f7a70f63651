/** `apb exec --dry-run` (model agent): what the run would execute and the tokens its calls carry, without calling anything. */
import type { Environment, ExecTask } from '../execution/environment.js';
import type { ExecTaskView } from '../execution/exec-spec.js';
import { agentSystemText } from '../execution/agent.js';
import { draftPlanPrompt } from '../execution/plans.js';
import type { ExecMode } from '../metrics/executable.js';
import { estimatedCost, priceOfSpec } from '../pipeline/budget.js';
import { estimateInputTokens } from '../providers/estimate.js';

/**
 * What `--dry-run` prints: the conversations and planning calls the run would make, and the tokens every agent
 * and planning call carries before the conversation adds to it (system text, policy, tools; APB's planner
 * prompt). How long each conversation runs is up to the models, so its total cannot be known in advance.
 */
export function dryRunText(
  environment: Environment,
  tasks: readonly ExecTask[],
  modes: readonly ExecMode[],
  model: string,
  judgeSpec: string,
  flags: { trials: number; maxSteps: number },
): string {
  const conversations = tasks.length * flags.trials * modes.length;
  const views = tasks as unknown as readonly ExecTaskView[];
  // A task that fixes its first user message (ToolSandbox's scenarios) needs no simulator call.
  const scripted = views.filter((task) => task.firstUserMessage !== undefined).length;
  const openings = (tasks.length - scripted) * flags.trials;
  const { agentFixed, plannerFixed } = fixedTokens(environment, views);
  const price = priceOfSpec(model);
  const perCall = (tokens: number) =>
    price && price !== 'free'
      ? ` (≈ ${estimatedCost(price, tokens, 0).toFixed(4)} USD of input each)`
      : '';
  const planned = tasks.length * flags.trials;
  const refines = modes.includes('refine')
    ? `, ${planned} critique(s) and ${planned} revision(s)`
    : '';
  const plans = modes.some((mode) => mode !== 'direct')
    ? `${planned} draft plan(s)${refines}, judged by ${judgeSpec}`
    : 'no plans';
  return [
    `apb exec --dry-run: ${environment.id}, ${tasks.length} task(s) × ${flags.trials} trial(s) × ${modes.length} mode(s) = ${conversations} conversation(s) with ${model}, plus ${openings} opening user message(s); ${plans}.`,
    `Every agent call carries at least ${agentFixed} input tokens (instructions, policy, tools)${perCall(agentFixed)}; every draft-plan call at least ${plannerFixed}${perCall(plannerFixed)}.`,
    `How many calls a conversation takes depends on the models (at most --max-steps ${flags.maxSteps} steps). Nothing was called or written.`,
    '',
  ].join('\n');
}

/**
 * The fewest input tokens an agent call and a draft-plan call carry before the conversation adds to
 * them: the instructions, the policy and the tools, which are the task's own where it has them
 * (ToolSandbox's scenarios: their system message and offered tools), else the environment's.
 */
function fixedTokens(
  environment: Environment,
  tasks: readonly ExecTaskView[],
): { agentFixed: number; plannerFixed: number } {
  const setups = new Map<string, { policy: string; tools: Environment['tools'] }>();
  for (const task of tasks.length > 0 ? tasks : [{} as Partial<ExecTaskView>]) {
    const policy = task.policy ?? environment.policy;
    const tools = task.tools ?? environment.tools;
    setups.set(`${policy}\u0000${JSON.stringify(tools.map((tool) => tool.name))}`, {
      policy,
      tools,
    });
  }
  let agentFixed = Infinity;
  let plannerFixed = Infinity;
  for (const { policy, tools } of setups.values()) {
    const system = agentSystemText(policy, null);
    const agent = estimateInputTokens(
      [{ role: 'system', parts: [{ type: 'text', text: system }] }],
      tools,
    );
    const planner = estimateInputTokens(draftPlanPrompt({ policy, request: '', tools }).messages);
    agentFixed = Math.min(agentFixed, agent);
    plannerFixed = Math.min(plannerFixed, planner);
  }
  return { agentFixed, plannerFixed };
}
