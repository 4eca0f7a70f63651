/** `apb exec --dry-run` (model agent): what the run would execute and the tokens its calls carry, without calling anything. */
import type { Environment, ExecTask } from '../execution/environment.js';
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
  const openings = tasks.length * flags.trials;
  const agentFixed = estimateInputTokens(
    [
      {
        role: 'system',
        parts: [{ type: 'text', text: agentSystemText(environment.policy, null) }],
      },
    ],
    environment.tools,
  );
  const plannerFixed = estimateInputTokens(
    draftPlanPrompt({ policy: environment.policy, request: '', tools: environment.tools }).messages,
  );
  const price = priceOfSpec(model);
  const perCall = (tokens: number) =>
    price && price !== 'free'
      ? ` (≈ ${estimatedCost(price, tokens, 0).toFixed(4)} USD of input each)`
      : '';
  const plans = modes.some((mode) => mode !== 'direct')
    ? `${openings} draft plan(s)${modes.includes('refine') ? `, ${openings} critique(s) and ${openings} revision(s)` : ''}, judged by ${judgeSpec}`
    : 'no plans';
  return [
    `apb exec --dry-run: ${environment.id}, ${tasks.length} task(s) × ${flags.trials} trial(s) × ${modes.length} mode(s) = ${conversations} conversation(s) with ${model}, plus ${openings} opening user message(s); ${plans}.`,
    `Every agent call carries at least ${agentFixed} input tokens (instructions, policy, tools)${perCall(agentFixed)}; every draft-plan call at least ${plannerFixed}${perCall(plannerFixed)}.`,
    `How many calls a conversation takes depends on the models (at most --max-steps ${flags.maxSteps} steps). Nothing was called or written.`,
    '',
  ].join('\n');
}
