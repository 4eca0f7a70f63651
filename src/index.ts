/**
 * apb's library API: an explicit list of named exports, nothing else.
 *
 * size-exception: the public API as one list a library user reads top to bottom.
 * (Splitting it into barrels would hide what is exported behind re-exports of re-exports.)
 */

export {
  ApbError,
  InputError,
  ProviderError,
  RunMismatchError,
  UsageError,
  formatIssue,
  type InputIssue,
} from './errors.js';

export {
  SPLITS,
  RELEASED_SPLITS,
  UNSOLVABLE_TYPES,
  type Case,
  type CaseInput,
  type CaseReference,
  type Facets,
  type SplitName,
  type Tool,
  type ToolCall,
} from './dataset/case.js';
export {
  readCases,
  readAllCases,
  resolveDatasetDir,
  SAMPLE_DATASET_DIR,
} from './dataset/read-cases.js';
export { prepareDataset, APB_DATASET_REPO } from './dataset/prepare.js';
export { ruleCheck, RULE_CHECK_VERSION, type RuleIssue } from './dataset/rule-check.js';
export {
  argumentSchemaProblems,
  hasArgumentSchema,
  isListedTool,
  type SchemaProblem,
  type ArgumentProblemKind,
} from './dataset/tool-arguments.js';

export { SETTINGS, type Setting } from './settings/index.js';
export type { Attempt, ParsedAnswer } from './settings/attempt.js';
export {
  DEFAULT_PROMPT_OPTIONS,
  promptText,
  type Prompt,
  type PromptOptions,
} from './settings/prompt.js';

export { runChecks, CHECKS } from './judge/checks/index.js';
export type { Findings } from './judge/checks/findings.js';
export { rulesJudge } from './judge/rules-judge.js';
export { createLlmJudge, type LlmJudgeOptions } from './judge/llm-judge.js';
export type { Judge, JudgeInput, JudgeResult } from './judge/judge.js';
export type { Verdict, Unjudged, JudgeOutcome } from './judge/verdict.js';

export { BASELINES } from './baselines/index.js';
export { buildProviderStack, type ProviderStackOptions } from './providers/registry.js';
export { DEFAULT_LIMITS, LIMIT_VARIABLES, limitsFromEnv, type Limits } from './limits.js';
export { FakeProvider } from './providers/fake-provider.js';
export type {
  Provider,
  ProviderRequest,
  ProviderResult,
  SamplingParams,
  Usage,
} from './providers/provider.js';

export {
  runEvaluation,
  type ResolvedRun,
  type RunDependencies,
  type RunSummary,
} from './pipeline/run.js';
export { providerPlanner, baselinePlanner, type Planner } from './pipeline/planner.js';
export { computeScores, type ScoresJson } from './pipeline/scores.js';
export { rowFromJudgementLine } from './pipeline/result-rows.js';
import { writeRunOutputs as writeDerivedFiles } from './pipeline/outputs.js';
import { writeRunReports } from './report/write-reports.js';
/** Writes a run directory's scores and reports (the manifest set to `failed` if that fails). */
export const writeRunOutputs = (dir: string, onWarning?: (message: string) => void) =>
  writeDerivedFiles(dir, writeRunReports, onWarning);
export type { JudgementLine, PredictionLine } from './pipeline/records.js';

export { refineAnswer, type RefineOutcome, type RefineRequest } from './refine/refine-answer.js';
export {
  functionCritic,
  providerCritic,
  type Critic,
  type CriticReply,
  type CritiqueRequest,
} from './refine/critic.js';
export { critiqueProfile, type CritiqueProfile, type RefineMode } from './refine/refine-prompts.js';
export type {
  CritiqueRecord,
  RefineRound,
  RefineStatus,
  RefineStep,
  RevisionRecord,
  RoleUsage,
} from './refine/records.js';

export { computeTables, type Tables } from './metrics/tables.js';
export { officialScores } from './metrics/official-groups.js';
export type { ResultRow } from './metrics/result-row.js';

// Scale (issue 17): shards, merge, streaming scores.
export { shardOfId, inShard, type Shard } from './pipeline/shard.js';
export { mergeRuns, type MergeSummary } from './pipeline/merge.js';
export { ScoresAccumulator } from './pipeline/scores.js';

// Executable validation (issue 15): environments, tau2's reward, replay.
export type {
  DatabaseDifference,
  DatabaseState,
  Environment,
  EnvironmentSession,
  EvaluationCriteria,
  ExecMessage,
  ExecTask,
  ExecToolCall,
  ReferenceAction,
  RewardComponent,
  Termination,
  ToolKind,
  ToolOutcome,
  ToolSpec,
  UserScenario,
} from './execution/environment.js';
export { ENVIRONMENTS, loadEnvironment, type EnvironmentId } from './execution/registry.js';
export {
  computeReward,
  expectedDatabase,
  type RewardDetails,
  type RewardInfo,
  type RewardInput,
  type RewardResult,
} from './execution/reward.js';
export {
  createNlAssertionJudge,
  type NlAssertionCheck,
  type NlAssertionJudge,
  type NlJudgement,
} from './execution/nl-assertions.js';
export {
  ExecutionRecordSchema,
  executionRecord,
  type ExecutionRecord,
} from './execution/execution-record.js';
export {
  goldReplay,
  readReplayFile,
  replayTask,
  type ReplayAgent,
  type ReplayOutcome,
  type ReplayScript,
} from './execution/replay.js';
export { runReplay, type ReplayRunSpec, type ReplaySummary } from './engine/exec-replay.js';

// Hardening (issue 12): the run-directory lock and the atomic-write helper.
export {
  writeFileAtomic,
  createAtomicWriter,
  openAppendNoFollow,
  type AtomicWriter,
} from './atomic-write.js';
export {
  acquireRunLock,
  withRunLock,
  runLockHolder,
  RunLockedError,
  RUN_LOCK_FILE,
  type RunLock,
  type RunLockHolder,
} from './rundir/lock.js';
export { Batcher, BatchDeferredError } from './providers/batch/batcher.js';
export { runWithBatches } from './pipeline/batch-run.js';
export { withEndpoints, endpointStats, type EndpointStats } from './providers/endpoints.js';

// Case construction (issue 16): apb construct, one library function per step.
export {
  SourceRecordSchema,
  stepsOf,
  type SourceRecord,
  type SourceMessage,
  type SourceTool,
} from './construction/source-record.js';
export type { ConstructedCase, MetaLine } from './construction/case-record.js';
export type { StepContext, StepResult, Skip } from './construction/step.js';
export { importEnvironment, type ImportEnvironment } from './construction/import-environment.js';
export { importTrajectoryLine, TrajectoryLineSchema } from './construction/import-trajectories.js';
export {
  checkSources,
  ruleCheckSource,
  type CheckResult,
  type Rejection,
} from './construction/check.js';
export { applyReview, ReviewLineSchema, type ReviewLine } from './construction/review.js';
export { constructAugment, DEFAULT_AUGMENT, type AugmentMeans } from './construction/augment.js';
export { constructHolistic, derivePlan } from './construction/holistic.js';
export { constructCuts, DEFAULT_CUTS, type CutsOptions } from './construction/cuts.js';
export {
  constructExtraneous,
  DEFAULT_LEVELS,
  type ExtraneousOptions,
} from './construction/extraneous.js';
export { constructBroken } from './construction/broken.js';
export { constructUnsolvable } from './construction/unsolvable.js';
export { constructEfficiency, keepSolvedBy } from './construction/efficiency.js';
export {
  providerModel,
  type ConstructionModel,
  type ModelPrompt,
  type ModelReply,
} from './construction/model.js';
export { randomFor, type Random } from './construction/random.js';
export { StepSpecSchema, type StepSpec } from './construction/step-spec.js';
export { runStep, type StepDeps, type StepRun, type StepSummary } from './construction/run-step.js';
export {
  runPipeline,
  PipelineConfigSchema,
  type PipelineConfig,
  type PipelineRun,
} from './construction/pipeline.js';

// The run-directory core every command is composed of (src/rundir/README.md).
export {
  openSession,
  withSession,
  resumeKeys,
  jsonManifest,
  type RunSession,
  type RunStatus,
  type ManifestCodec,
  type SessionOptions,
  type UnitsEnd,
} from './rundir/session.js';
export { runUnits, type UnitPool, type UnitsOutcome } from './rundir/run-units.js';
export { runPool, type PoolOptions, type PoolControl } from './rundir/pool.js';
export { createJsonlStore, type JsonlStore, type LineSource } from './rundir/jsonl-store.js';
export { trustedObject, checkLine, type LineSchema } from './rundir/line-schema.js';
// Command entry points as library functions (typed spec → typed summary).
export {
  rejudgeRun,
  type RejudgeRequest,
  type RejudgeSummary,
  type RejudgeDependencies,
} from './pipeline/rejudge.js';
export {
  refineRun,
  type RefineRunRequest,
  type RefineRunSummary,
  type RefineRunDependencies,
} from './pipeline/refine-run.js';

// The commands as library functions (src/engine/): a typed spec in, a typed summary out; the CLI
// maps its flags to the spec and prints the summary.
export {
  createRunProviders,
  defaultCacheDir,
  type EngineOptions,
  type RunProviders,
} from './engine/providers.js';
export { resolveJudge, resolvePlanner } from './engine/resolve.js';
export {
  runModels,
  type RunModelsHooks,
  type RunModelsSpec,
  type RunModelsSummary,
} from './engine/run-models.js';
export { runRejudge, type RejudgeRunSpec, type RejudgeRunResult } from './engine/rejudge.js';
export { runRefinement, type RefinementSpec } from './engine/refine.js';
export { mergeRunDirs } from './engine/merge.js';
export {
  runModelExecution,
  type ModelExecutionHooks,
  type ModelExecutionSpec,
  type ModelExecutionSummary,
} from './engine/exec-model.js';
export { runReplayExecution, type ReplayExecutionSpec } from './engine/exec-replay.js';
export {
  runModelExecutions,
  envDirName,
  type EnvSelection,
  type EnvironmentExecution,
  type ModelExecutionsHooks,
  type ModelExecutionsSpec,
  type ModelExecutionsSummary,
} from './engine/exec-envs.js';
export {
  replayToolSandbox,
  type ToolSandboxReplayExecutionSpec,
  type ToolSandboxReplayExecutionSummary,
} from './engine/exec-toolsandbox.js';
export {
  constructStep,
  constructPipeline,
  type ConstructStepSpec,
  type ConstructPipelineSpec,
  type ConstructOutcome,
} from './engine/construct.js';
export { startServing, type ServeHandle, type ServeSpec } from './engine/serve.js';
export { runExec, type ExecRunSpec, type ExecDependencies } from './execution/exec-run.js';
export { buildExecSummary } from './report/exec-summary.js';
export { writeExecOutputs } from './report/write-exec-reports.js';
