/**
 * `exec-manifest.json`: what an exec run directory was made with (its identity) and how it ended. A re-run into
 * the same directory resumes only with the same identity — other models, user simulator, critic, judge, step
 * limit or prompts would mix incomparable executions — and is refused with the differences named. Modes and
 * trials may grow between runs: they are the selection, not the identity.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { RunMismatchError } from '../errors.js';
import type { BudgetSummary } from '../pipeline/budget.js';
import type { Manifest } from '../pipeline/manifest.js';
import { APB_VERSION } from '../version.js';

/** The name of the manifest in an exec run directory. */
export const EXEC_MANIFEST_FILE = 'exec-manifest.json';

/** What must be equal for executions to share a directory. */
export interface ExecIdentity {
  env: string;
  model: string;
  user_model: string;
  critic: string;
  taxonomy: boolean;
  judge: string;
  max_steps: number;
  max_errors: number;
  prompt_versions: Record<string, string>;
  sampling: Record<string, unknown>;
}

/** The manifest: identity, selection and outcome. */
export interface ExecManifest {
  kind: 'exec';
  apb_version: string;
  identity: ExecIdentity;
  modes: string[];
  trials: number;
  tasks: number;
  started_at: string;
  ended_at: string | null;
  status: 'running' | 'complete' | 'interrupted' | 'stopped-budget' | 'failed';
  executions: { total: number; finished: number; already_done: number };
  /** The `--max-cost` budget of the latest invocation, when one was given (what it spent, whether it stopped). */
  budget?: BudgetSummary;
  /** The latest invocation's counts per endpoint (requests, 429s, failures, concurrency limits). */
  endpoints?: Manifest['endpoints'];
}

/** The differences between two identities, as `field: before → now` lines. */
export function identityDifferences(before: ExecIdentity, now: ExecIdentity): string[] {
  const out: string[] = [];
  for (const key of Object.keys(now) as Array<keyof ExecIdentity>) {
    const a = JSON.stringify(before[key]);
    const b = JSON.stringify(now[key]);
    if (a !== b) out.push(`${key}: ${a} → ${b}`);
  }
  return out;
}

/** Reads the directory's manifest, if any, and refuses a different identity; returns the earlier manifest. */
export function checkExecIdentity(dir: string, identity: ExecIdentity): ExecManifest | null {
  const file = path.join(dir, EXEC_MANIFEST_FILE);
  if (!existsSync(file)) return null;
  const before = JSON.parse(readFileSync(file, 'utf8')) as ExecManifest;
  const differences = identityDifferences(before.identity, identity);
  if (differences.length > 0)
    throw new RunMismatchError(
      `${dir} holds executions made with other settings; use another --out, or the same settings to resume:\n  ${differences.join('\n  ')}`,
    );
  return before;
}

/** Writes the manifest (whole file, replaced). */
export function writeExecManifest(
  dir: string,
  manifest: Omit<ExecManifest, 'kind' | 'apb_version'>,
): void {
  const full: ExecManifest = { kind: 'exec', apb_version: APB_VERSION, ...manifest };
  writeFileAtomic(path.join(dir, EXEC_MANIFEST_FILE), `${JSON.stringify(full, null, 2)}\n`);
}
