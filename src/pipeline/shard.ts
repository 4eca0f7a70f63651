/**
 * `--shard I/N`: a stable partition of the cases by id. A case's shard depends on its id alone, so
 * reordering, filtering or appending to the dataset never moves a case between shards, and all
 * repeats of a case run in its shard (pass@k / pass^k stay computable per shard).
 */
import { createHash } from 'node:crypto';

/** One shard of N, 1-based. */
export interface Shard {
  index: number;
  count: number;
}

/** The 1-based shard of N that holds the case `id`: the first 32 bits of sha256(id), modulo N. */
export function shardOfId(id: string, count: number): number {
  // 2^32 is far above any shard count, so the modulo's bias is negligible (< N / 2^32).
  return (createHash('sha256').update(id, 'utf8').digest().readUInt32BE(0) % count) + 1;
}

/** Whether the case `id` belongs to `shard`. */
export function inShard(id: string, shard: Shard): boolean {
  return shard.count === 1 || shardOfId(id, shard.count) === shard.index;
}

/** `I/N` as written on the command line and in `manifest.json`. */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** Where `--shard auto` found its shard, for the line it prints. */
export interface SchedulerShard {
  shard: Shard;
  /** The scheduler and the variables read (`Slurm job array (SLURM_ARRAY_TASK_ID=3, …)`). */
  source: string;
}

const integer = (value: string | undefined): number | null =>
  value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : null;

/**
 * `--shard auto`: the shard from the index the scheduler gives each task. Kubernetes Indexed Jobs
 * (`JOB_COMPLETION_INDEX`, 0-based; the count is `--shards N`, the Job's `completions`), Slurm job
 * arrays (`SLURM_ARRAY_TASK_ID` from `SLURM_ARRAY_TASK_MIN` in steps of `SLURM_ARRAY_TASK_STEP`,
 * `SLURM_ARRAY_TASK_COUNT` tasks), AWS Batch array jobs (`AWS_BATCH_JOB_ARRAY_INDEX`, 0-based,
 * `--shards N`), and anything else that sets `APB_SHARD_INDEX` (1-based) and `APB_SHARD_COUNT`
 * (a GitHub Actions matrix: docs/schedulers.md). Throws a message naming what is missing.
 */
export function shardFromScheduler(
  env: Readonly<Record<string, string | undefined>>,
  shards?: number,
): SchedulerShard {
  const make = (index: number, count: number | null | undefined, source: string) => {
    if (!count) throw new Error(`--shard auto: ${source} gives no shard count; add --shards N`);
    if (index < 1 || index > count)
      throw new Error(`--shard auto: ${source} is shard ${index} of ${count}, outside 1..${count}`);
    return { shard: { index, count }, source };
  };
  const k8s = integer(env.JOB_COMPLETION_INDEX);
  if (k8s !== null)
    return make(k8s + 1, shards, `Kubernetes Indexed Job (JOB_COMPLETION_INDEX=${k8s})`);
  const slurm = integer(env.SLURM_ARRAY_TASK_ID);
  if (slurm !== null) {
    const min = integer(env.SLURM_ARRAY_TASK_MIN) ?? 0;
    const step = integer(env.SLURM_ARRAY_TASK_STEP) ?? 1;
    const count = shards ?? integer(env.SLURM_ARRAY_TASK_COUNT);
    return make(
      Math.floor((slurm - min) / Math.max(1, step)) + 1,
      count,
      `Slurm job array (SLURM_ARRAY_TASK_ID=${slurm}, SLURM_ARRAY_TASK_MIN=${min}, SLURM_ARRAY_TASK_COUNT=${env.SLURM_ARRAY_TASK_COUNT ?? 'unset'})`,
    );
  }
  const aws = integer(env.AWS_BATCH_JOB_ARRAY_INDEX);
  if (aws !== null)
    return make(aws + 1, shards, `AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX=${aws})`);
  const index = integer(env.APB_SHARD_INDEX);
  if (index !== null)
    return make(
      index,
      shards ?? integer(env.APB_SHARD_COUNT),
      `APB_SHARD_INDEX=${index}, APB_SHARD_COUNT=${env.APB_SHARD_COUNT ?? 'unset'}`,
    );
  throw new Error(
    '--shard auto: no scheduler index found (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX or APB_SHARD_INDEX)',
  );
}

/**
 * Fleet-wide limits (`--fleet-limits`): of the run-wide `rpm`, `tpm`, `concurrency` and `maxCost`
 * in `limits`, each of N shards gets its share (at least 1 request, token or slot); a model entry's
 * own limits are its own.
 */
export function fleetShare(
  limits: Readonly<Record<string, unknown>>,
  count: number,
): Partial<Record<'rpm' | 'tpm' | 'concurrency' | 'maxCost', number>> {
  const share: Partial<Record<'rpm' | 'tpm' | 'concurrency' | 'maxCost', number>> = {};
  for (const key of ['rpm', 'tpm', 'concurrency'] as const) {
    const value = limits[key];
    if (typeof value === 'number') share[key] = Math.max(1, Math.floor(value / count));
  }
  if (typeof limits.maxCost === 'number') share.maxCost = limits.maxCost / count;
  return share;
}
