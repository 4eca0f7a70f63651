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
import type { z } from 'zod';
import {
  EXEC_MANIFEST_SCHEMA_VERSION,
  parseRunFileValue,
  type ExecIdentitySchema,
  type ExecManifestSchema,
} from '../rundir/schemas/index.js';
import { APB_VERSION } from '../version.js';

/** The name of the manifest in an exec run directory. */
export const EXEC_MANIFEST_FILE = 'exec-manifest.json';

/** What must be equal for executions to share a directory. */
export type ExecIdentity = z.infer<typeof ExecIdentitySchema>;

/** The manifest: identity, selection and outcome (`rundir/schemas/manifests.ts`). */
export type ExecManifest = z.infer<typeof ExecManifestSchema>;

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
  const before = parseRunFileValue('execManifest', JSON.parse(readFileSync(file, 'utf8')), {
    file,
    line: 1,
  }) as ExecManifest;
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
  manifest: Omit<ExecManifest, 'kind' | 'schema_version' | 'apb_version'>,
): void {
  const full: ExecManifest = {
    kind: 'exec',
    schema_version: EXEC_MANIFEST_SCHEMA_VERSION,
    apb_version: APB_VERSION,
    ...manifest,
  };
  writeFileAtomic(path.join(dir, EXEC_MANIFEST_FILE), `${JSON.stringify(full, null, 2)}\n`);
}
