/**
 * Task subsets of the tau2 domains for `apb exec --subset NAME|FILE`. The paper runs 200 τ²-bench
 * tasks and does not say which; `paper200` (data/tau2/paper200.json) is apb's choice, made by
 * `chooseSubset` below and checked against it by a test: the 278 base tasks (retail 114, airline 50,
 * telecom 114) stratified by domain with quotas proportional to the domain's size (largest
 * remainder: 82, 36, 82), and within a domain the tasks whose SHA-256 of `SEED:ENV:ID` sorts first —
 * deterministic, and independent of the tasks' order or of anything a model did. A subset file is
 * JSON: `{"tasks": {"tau2:retail": ["0", …], …}}` (other fields are documentation).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { InputError, UsageError } from '../errors.js';

/** The shipped subsets, by name. */
export const SHIPPED_SUBSETS: Record<string, string> = {
  paper200: fileURLToPath(new URL('../../data/tau2/paper200.json', import.meta.url)),
};

/** The seed of `paper200`'s ranking. */
export const PAPER200_SEED = 'apb-paper200';

const SubsetFile = z.object({ tasks: z.record(z.string(), z.array(z.string().min(1))) });

/** A subset: task ids per environment id, in the environment's order. */
export type TaskSubset = Record<string, string[]>;

/** Quotas proportional to the pools' sizes summing to `total` (largest remainder; ties to the earlier pool). */
export function quotas(sizes: readonly number[], total: number): number[] {
  const all = sizes.reduce((sum, size) => sum + size, 0);
  const exact = sizes.map((size) => (size * total) / all);
  const out = exact.map(Math.floor);
  const order = exact
    .map((value, index) => ({ index, rest: value - Math.floor(value) }))
    .sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (let left = total - out.reduce((sum, n) => sum + n, 0), i = 0; left > 0; left -= 1, i += 1)
    out[order[i % order.length]!.index]! += 1;
  return out;
}

const rank = (seed: string, env: string, id: string) =>
  createHash('sha256').update(`${seed}:${env}:${id}`).digest('hex');

/** The stratified choice: per pool its quota of the ids ranking first by hash, kept in the pool's order. */
export function chooseSubset(
  pools: ReadonlyArray<{ env: string; ids: readonly string[] }>,
  total: number,
  seed: string,
): TaskSubset {
  const counts = quotas(
    pools.map((pool) => pool.ids.length),
    total,
  );
  return Object.fromEntries(
    pools.map((pool, index) => {
      const chosen = new Set(
        [...pool.ids]
          .sort((a, b) => rank(seed, pool.env, a).localeCompare(rank(seed, pool.env, b)))
          .slice(0, counts[index]),
      );
      return [pool.env, pool.ids.filter((id) => chosen.has(id))];
    }),
  );
}

/** Reads `--subset NAME|FILE`: a shipped name or a JSON file; a bad file is an error naming file and field. */
export function readTaskSubset(spec: string): TaskSubset {
  const file = SHIPPED_SUBSETS[spec] ?? path.resolve(spec);
  if (!existsSync(file))
    throw new UsageError(
      `--subset ${spec}: neither a shipped subset (${Object.keys(SHIPPED_SUBSETS).join(', ')}) nor a file`,
    );
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError([
      { file, line: 1, field: '(file)', message: `invalid JSON: ${(error as Error).message}` },
    ]);
  }
  const parsed = SubsetFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError([
      { file, line: 1, field: issue.path.join('.') || '(file)', message: issue.message },
    ]);
  }
  return parsed.data.tasks;
}

/** The subset's ids for one environment; an environment the subset does not name is a usage error. */
export function subsetIdsFor(subset: TaskSubset, spec: string, env: string): string[] {
  const ids = subset[env];
  if (!ids)
    throw new UsageError(
      `--subset ${spec} has no tasks for ${env} (it names ${Object.keys(subset).join(', ')})`,
    );
  return ids;
}
