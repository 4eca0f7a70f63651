/**
 * Finding run directories below a folder (I/O): `apb view runs/` serves every run directory under
 * `runs/`, and a several-model run's `--out` folder its models' runs. A run directory is one holding
 * `manifest.json`, `judgements.jsonl` or (an `apb exec` model run) `exec-manifest.json`; the walk does not descend into one, skips hidden folders and
 * `node_modules`, follows no symbolic link and stops at a few levels.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../errors.js';

/** How deep below a given folder run directories are looked for. */
export const DISCOVERY_DEPTH = 4;

/** True when `dir` is a run directory (ours, an exec run's, or one holding an official-harness judgements.jsonl). */
export function isRunDir(dir: string): boolean {
  return ['manifest.json', 'judgements.jsonl', 'exec-manifest.json'].some((name) =>
    existsSync(path.join(dir, name)),
  );
}

function walk(dir: string, depth: number, found: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const full = path.join(dir, name);
    if (!lstatSync(full).isDirectory()) continue;
    if (isRunDir(full)) found.push(full);
    else if (depth > 1) walk(full, depth - 1, found);
  }
}

/** The run directories a target names: itself when it is one (or a .jsonl file), else those below it. */
export function discoverRunDirs(target: string): string[] {
  if (!existsSync(target)) throw new UsageError(`run directory not found: ${target}`);
  if (statSync(target).isFile() || isRunDir(target)) return [target];
  const found: string[] = [];
  walk(target, DISCOVERY_DEPTH, found);
  if (found.length === 0)
    throw new UsageError(
      `${target} holds no run directory (none with a manifest.json, exec-manifest.json or judgements.jsonl within ${DISCOVERY_DEPTH} levels)`,
    );
  return found;
}
