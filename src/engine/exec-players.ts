/**
 * Who plays and judges in an exec run with a model agent: the tested model (agent, planner,
 * reviser), the user simulator, the critic, the judges, and tau2's reward as the evaluator; and
 * the identity `exec-manifest.json` records for them.
 */
import type { Environment, EnvironmentSession, ExecTask } from '../execution/environment.js';
import type { ExecIdentity } from '../execution/exec-manifest.js';
import type { Evaluate } from '../execution/exec-run.js';
import { AGENT_PROMPT_VERSION } from '../execution/agent.js';
import { USER_PROMPT_VERSION } from '../execution/user-simulator.js';
import { createNlAssertionJudge } from '../execution/nl-assertions.js';
import { computeReward } from '../execution/reward.js';
import type { Judge } from '../judge/judge.js';
import type { Provider, SamplingParams } from '../providers/provider.js';
import type { RunProviders } from './providers.js';
import { judgeSamplingParams, resolveJudge, type JudgeSamplingFlags } from './resolve.js';

/** The models of an exec run, as specs and endpoints (null: the provider's default). */
export interface ExecModels {
  /** The tested model, `PROVIDER:MODEL`. */
  model: string;
  baseUrl: string | null;
  /** The user simulator; absent: the judge model when it is an LLM, else the tested model. */
  userModel?: string;
  userBaseUrl?: string | null;
  /** `--mode refine`'s critic; absent: the tested model. */
  critic?: string;
  criticBaseUrl?: string | null;
  /** `rules` or an LLM judge's `PROVIDER:MODEL` (of plans, and of NL assertions). */
  judge: string;
  judgeBaseUrl: string | null;
  /** False: NL assertions stay unjudged (null rewards) even with an LLM judge. */
  nlJudge: boolean;
  /** `--judge-…` options of the plan judge (temperature stays 0). */
  judgeSampling?: JudgeSamplingFlags | null;
}

/** Where the user simulator came from (for the run's opening notice). */
export type UserSource = 'user-model' | 'tested-model' | 'judge-model';

export interface ExecPlayers {
  agent: Provider;
  user: Provider;
  userSource: UserSource;
  planner: Provider;
  critic: Provider;
  judge: Judge;
  evaluate: Evaluate;
  nlJudgeId: string | null;
}

const isLlm = (spec: string) => spec !== 'rules' && !spec.startsWith('baseline:');

/** tau2's reward over a finished conversation, NL assertions judged by `nlJudge` when given. */
function rewardEvaluator(
  environment: Environment,
  nlJudge: ReturnType<typeof createNlAssertionJudge> | undefined,
): Evaluate {
  return async ({ task, messages, termination, session }, signal) => {
    const result = await computeReward({
      environment,
      task: task as ExecTask,
      messages,
      termination,
      finalDatabase: (session as EnvironmentSession).database(),
      ...(nlJudge ? { nlJudge } : {}),
      ...(signal ? { signal } : {}),
    });
    return {
      reward: result.reward,
      reward_info: { ...result.reward_info },
      details: { ...result.details },
    };
  };
}

/** The players of the run over the run's providers. */
export function playersOf(
  environment: Environment,
  models: ExecModels,
  providers: RunProviders,
): ExecPlayers {
  const agent = providers.provider(models.model, models.baseUrl);
  const userSource: UserSource = models.userModel
    ? 'user-model'
    : isLlm(models.judge)
      ? 'judge-model'
      : 'tested-model';
  const user =
    userSource === 'user-model'
      ? providers.provider(models.userModel!, models.userBaseUrl ?? null)
      : userSource === 'judge-model'
        ? providers.provider(models.judge, models.judgeBaseUrl)
        : agent;
  const critic = models.critic
    ? providers.provider(models.critic, models.criticBaseUrl ?? null)
    : agent;
  const judge = resolveJudge([models.judge], providers, {
    baseUrl: models.judgeBaseUrl,
    protocol: 'paper',
    blind: false,
    ...(models.judgeSampling ? { sampling: models.judgeSampling } : {}),
  });
  const nlJudge =
    models.judge === 'rules' || models.nlJudge === false
      ? undefined
      : createNlAssertionJudge(
          providers.provider(models.judge, models.judgeBaseUrl),
          judgeSamplingParams(models.judgeSampling ?? undefined),
          providers.limits.jsonDepth,
        );
  return {
    agent,
    user,
    userSource,
    planner: agent,
    critic,
    judge,
    // an environment with its own score (ToolSandbox's similarity) evaluates itself
    evaluate:
      (environment.evaluate as Evaluate | undefined) ?? rewardEvaluator(environment, nlJudge),
    nlJudgeId: nlJudge ? models.judge : null,
  };
}

/** The run's identity as `exec-manifest.json` records it (a resume with another one is refused). */
export function identityOf(
  environment: Environment,
  players: ExecPlayers,
  run: { refine: boolean; taxonomy: boolean; maxSteps: number; maxErrors: number },
  sampling: { agent: SamplingParams; user: SamplingParams; critic?: SamplingParams },
): ExecIdentity {
  return {
    env: environment.id,
    model: players.agent.id,
    user_model: players.user.id,
    critic: run.refine ? players.critic.id : 'none',
    taxonomy: run.taxonomy,
    judge: players.judge.id,
    max_steps: run.maxSteps,
    max_errors: run.maxErrors,
    prompt_versions: {
      agent: environment.promptVersions?.agent ?? AGENT_PROMPT_VERSION,
      user: environment.promptVersions?.user ?? USER_PROMPT_VERSION,
      judge: players.judge.version,
    },
    sampling,
    ...(environment.clock ? { clock: environment.clock } : {}),
  };
}
