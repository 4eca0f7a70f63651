/**
 * `module:PATH`: an ES module (or TypeScript file) whose default export is
 * `{ id?, version?, plan(request, signal) }`, loaded once and called in process.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../../errors.js';
import type { CodeTransport } from './adapter.js';
import { codeError } from './wire.js';

/** What the module's default export must be. */
export interface PlannerModule {
  id?: string;
  version?: string;
  plan(request: unknown, signal: AbortSignal | undefined): unknown;
}

/** The module's file, checked now (a missing one is a usage error before any call). */
export function checkModuleTarget(spec: string, target: string, cwd = process.cwd()): string {
  if (target === '') throw new UsageError(`${spec}: no path after "module:"`);
  const file = path.resolve(cwd, target);
  if (!existsSync(file) || !statSync(file).isFile())
    throw new UsageError(`${spec}: no such file ${file}`);
  return file;
}

/** sha256 of the module file's bytes: a change of the file is a change of the planner (cache identity). */
export function fileDigest(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
}

const isTypeScript = (file: string) => /\.(c|m)?tsx?$/.test(file);

async function importFile(file: string): Promise<Record<string, unknown>> {
  // The digest in the URL: an edited file is loaded afresh, not answered from the module cache.
  const url = `${pathToFileURL(file).href}?digest=${fileDigest(file)}`;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (!isTypeScript(file) || code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
  }
  // Node before 22.6 runs no TypeScript itself: tsx's loader compiles the file, where it is installed.
  let api: { tsImport(url: string, parent: string): Promise<unknown> };
  try {
    api = (await import('tsx/esm/api' as string)) as typeof api;
  } catch {
    throw new UsageError(
      `${file} is TypeScript and this Node (${process.version}) cannot load it: install tsx (npm i -D tsx), use Node >= 23.6, or point module: at the compiled .js`,
    );
  }
  return (await api.tsImport(url, import.meta.url)) as Record<string, unknown>;
}

/** Loads the planner; a file that exports no `plan` function is a usage error naming it. */
export async function loadPlannerModule(spec: string, file: string): Promise<PlannerModule> {
  let loaded: Record<string, unknown>;
  try {
    loaded = await importFile(file);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${spec}: cannot load ${file}: ${(error as Error).message}`);
  }
  const exported = (loaded.default ?? loaded) as Partial<PlannerModule> | undefined;
  if (!exported || typeof exported.plan !== 'function')
    throw new UsageError(
      `${spec}: ${file} must export default { plan(request, signal) } (found no plan function)`,
    );
  for (const field of ['id', 'version'] as const)
    if (exported[field] !== undefined && typeof exported[field] !== 'string')
      throw new UsageError(`${spec}: the export's "${field}" must be a string`);
  return exported as PlannerModule;
}

/** The transport of a loaded module: `plan` is awaited; a throw is that case's error. */
export function moduleTransport(id: string, planner: PlannerModule): CodeTransport {
  return async (request, signal) => {
    try {
      return await planner.plan(structuredClone(request), signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw codeError(id, `plan() threw: ${(error as Error)?.message ?? String(error)}`, 'client');
    }
  };
}
