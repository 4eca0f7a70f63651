/**
 * `apb exec --agent replay:FILE|replay:gold`: replays scripted agents on an environment's tasks,
 * scores each with tau2's reward, and writes `executions.jsonl` (one line per task, mode `replay`,
 * trial 0), `manifest.json` and, with `--dump-db`, each task's final database — a composition of
 * the run-directory core (`withSession` → `runUnits` → `finish`); `runReplayExecution` adds the
 * judge's provider stack and the scores and reports.
 */
import { selectTasks } from './exec-tasks.js';
import type { Limits } from '../limits.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { RunMismatchError, UsageError } from '../errors.js';
import type { Environment, ExecTask } from '../execution/environment.js';
import { executionRecord, type ExecutionRecord } from '../execution/execution-record.js';
import { createNlAssertionJudge, type NlAssertionJudge } from '../execution/nl-assertions.js';
import { goldReplay, readReplayFile, replayTask, type ReplayAgent } from '../execution/replay.js';
import { computeReward } from '../execution/reward.js';
import { writeFileAtomic } from '../atomic-write.js';
import { APB_VERSION } from '../version.js';
import { costOfCall } from '../pipeline/budget.js';
import { readJsonLines } from '../pipeline/results-store.js';
import { writeExecOutputs } from '../report/write-exec-reports.js';
import { runUnits } from '../rundir/run-units.js';
import { jsonManifest, withSession, type RunSession } from '../rundir/session.js';
import { createRunProviders } from './providers.js';

/** What a replay run is asked to do. */
export interface ReplayRunSpec {
  environment: Environment;
  /** `gold` or the path of a replay JSONL file. */
  agent: string;
  taskIds: string[] | null;
  split: string;
  limit: number | null;
  outDir: string;
  dumpDbDir: string | null;
  nlJudge: NlAssertionJudge | null;
  /** Aborted: no further task starts (what finished is written). */
  stop?: AbortSignal;
  /** Aborted: cancels the judge call in flight. */
  signal?: AbortSignal;
  /** Given: `exec-scores.json`, `report.md` and `report.html` are written too, under the lock. */
  reports?: { comparePaper: boolean };
  /** The size caps the replay file and the run files are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

/** Counts of a finished replay run. */
export interface ReplaySummary {
  agent: string;
  tasks: number;
  /** Tasks with reward 1, 0, and null (NL assertions not judged). */
  rewardOne: number;
  rewardZero: number;
  unjudged: number;
  /** Of the unjudged: those whose other components all hold (`reward_if_nl_met` 1). */
  unjudgedWouldPass: number;
  /** Tasks whose final database equals the expected one (or is not compared: tau2 then scores it 1). */
  databaseMatches: number;
  toolErrors: number;
  executionsFile: string;
  /** True when a stop signal ended the run before every task was replayed. */
  interrupted: boolean;
}

/** Refuses an output directory that holds executions of another agent or environment. */
async function checkOutDir(
  file: string,
  environment: Environment,
  agentId: string,
  limits: Limits | undefined,
): Promise<void> {
  for await (const { line, value } of readJsonLines(file, undefined, limits)) {
    if (value.env !== environment.id || value.model !== agentId)
      throw new RunMismatchError(
        `${file}:${line}: holds executions of ${String(value.model)} on ${String(value.env)}, not ${agentId} on ${environment.id}: choose another --out`,
      );
  }
}

/** DIR/<task_id>.json; characters outside [A-Za-z0-9_.-] (telecom's `[`, `|`, `:`) percent-encoded. */
function dumpFile(dir: string, taskId: string): string {
  const name = taskId.replace(/[^\w.-]/g, (char) =>
    encodeURIComponent(char).replace(
      /[!'()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    ),
  );
  if (name === '' || name.startsWith('.'))
    throw new UsageError(`--dump-db: task id "${taskId}" is not a safe file name`);
  return path.join(dir, `${name}.json`);
}

/** `manifest.json` of a replay: written when the run ends (a replay is redone whole, never resumed). */
const REPLAY_MANIFEST = jsonManifest<Record<string, unknown>>('manifest.json', () => null);

/** Runs the replay and writes its files (on the run-directory core: its lock, store and unit loop); returns the counts. */
export async function runReplay(spec: ReplayRunSpec): Promise<ReplaySummary> {
  const { environment } = spec;
  // The script and the selection are checked before the run directory is created or locked.
  const agent =
    spec.agent === 'gold'
      ? goldReplay(environment)
      : await readReplayFile(spec.agent, environment, spec.limits);
  const tasks = selectTasks(environment, spec, agent);
  if (tasks.length === 0)
    throw new UsageError(
      `no task of ${environment.id} is selected (split ${spec.split}${spec.taskIds ? `, --tasks ${spec.taskIds.join(',')}` : ''})`,
    );
  mkdirSync(spec.outDir, { recursive: true });
  return withSession(
    {
      dir: spec.outDir,
      command: 'exec',
      manifest: REPLAY_MANIFEST,
      stop: spec.stop,
      signal: spec.signal,
      limits: spec.limits,
    },
    async (session) => {
      const summary = await replayInto(session, spec, agent, tasks);
      // A replay is a run like any other: its scores and reports sit beside its executions.
      if (spec.reports) await writeExecOutputs(spec.outDir, costOfCall, spec.reports);
      return summary;
    },
  );
}

/** One task replayed through the conversation loop and scored with tau2's reward. */
async function replayOne(
  spec: ReplayRunSpec,
  agent: ReplayAgent,
  task: ExecTask,
  signal: AbortSignal,
): Promise<{ record: ExecutionRecord; database: unknown }> {
  const { environment } = spec;
  const startedAt = new Date().toISOString();
  const outcome = await replayTask(environment, task, agent.scripts.get(task.id)!);
  const reward = await computeReward({
    environment,
    task,
    ...outcome,
    ...(spec.nlJudge ? { nlJudge: spec.nlJudge } : {}),
    signal,
  });
  const record = executionRecord({
    env: environment.id,
    task,
    model: agent.id,
    trial: 0,
    messages: outcome.messages,
    termination: outcome.termination,
    reward,
    nlJudge: spec.nlJudge?.id ?? null,
    startedAt,
    finishedAt: new Date().toISOString(),
  });
  return { record, database: outcome.finalDatabase.toJson() };
}

async function replayInto(
  session: RunSession<Record<string, unknown>>,
  spec: ReplayRunSpec,
  agent: ReplayAgent,
  tasks: ExecTask[],
): Promise<ReplaySummary> {
  const { environment } = spec;
  const executionsFile = path.join(spec.outDir, 'executions.jsonl');
  await checkOutDir(executionsFile, environment, agent.id, spec.limits);
  if (spec.dumpDbDir) mkdirSync(spec.dumpDbDir, { recursive: true });
  const startedAt = new Date().toISOString();
  // A replay is deterministic: a re-run starts the file afresh, and each line is appended as its task ends.
  writeFileAtomic(executionsFile, '');
  const store = session.store<ExecutionRecord>('executions.jsonl');
  const records: ExecutionRecord[] = [];
  const end = await runUnits(
    session,
    tasks,
    (task, signal) => replayOne(spec, agent, task, signal),
    { concurrency: 1, ordered: true },
    ({ record, database }, task) => {
      store.append(record);
      records.push(record);
      if (spec.dumpDbDir)
        writeFileAtomic(dumpFile(spec.dumpDbDir, task.id), `${JSON.stringify(database)}\n`);
    },
  );
  if (end.failure) throw end.failure;
  const interrupted = records.length < tasks.length && session.interrupted(end);
  const summary = summaryOf(agent.id, records, executionsFile, interrupted);
  session.finish({
    apb_version: APB_VERSION,
    command: 'exec',
    env: environment.id,
    agent: agent.id,
    nl_judge: spec.nlJudge?.id ?? null,
    split: spec.split,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    counts: { ...summary, executionsFile: undefined, interrupted: undefined },
    interrupted,
  });
  return summary;
}

/** The counts of a replay's executions. */
function summaryOf(
  agent: string,
  records: readonly ExecutionRecord[],
  executionsFile: string,
  interrupted: boolean,
): ReplaySummary {
  return {
    agent,
    tasks: records.length,
    rewardOne: records.filter((record) => record.reward === 1).length,
    rewardZero: records.filter((record) => record.reward === 0).length,
    unjudged: records.filter((record) => record.reward === null).length,
    unjudgedWouldPass: records.filter(
      (record) => record.reward === null && record.reward_info.reward_if_nl_met === 1,
    ).length,
    databaseMatches: records.filter((record) => record.reward_details.db_differences.length === 0)
      .length,
    toolErrors: records.reduce(
      (sum, record) =>
        sum + record.messages.filter((message) => message.role === 'tool' && message.error).length,
      0,
    ),
    executionsFile,
    interrupted,
  };
}

/** A replay run as the command gives it: the NL-assertion judge as a spec, with its engine knobs. */
export interface ReplayExecutionSpec extends Omit<ReplayRunSpec, 'nlJudge' | 'reports'> {
  /** An LLM judge of NL assertions (`PROVIDER:MODEL`), or null: they are reported as not evaluated. */
  judge: string | null;
  judgeBaseUrl: string | null;
  timeoutMs: number;
  maxRetries: number;
  cache: boolean;
  cacheDir: string;
  /** The reports put the paper's Table 3 beside the run's rows. */
  comparePaper: boolean;
}

/**
 * `runReplay` with the NL-assertion judge behind the run's provider stack (cache, retries,
 * timeout), and the run's scores and reports.
 */
export async function runReplayExecution(spec: ReplayExecutionSpec): Promise<ReplaySummary> {
  const { judge, judgeBaseUrl, timeoutMs, maxRetries, cache, cacheDir, comparePaper, ...run } =
    spec;
  if (judge === 'rules' || judge?.startsWith('baseline:'))
    throw new UsageError(
      `--judge ${judge} cannot judge NL assertions: give an LLM (PROVIDER:MODEL)`,
    );
  const providers = createRunProviders({
    ...{ concurrency: 1, timeoutMs, maxRetries, cache, cacheDir },
    ...(run.limits ? { limits: run.limits } : {}),
  });
  try {
    const nlJudge = judge
      ? createNlAssertionJudge(
          providers.provider(judge, judgeBaseUrl),
          {},
          providers.limits.jsonDepth,
        )
      : null;
    return await runReplay({ ...run, nlJudge, reports: { comparePaper } });
  } finally {
    providers.close();
  }
}
