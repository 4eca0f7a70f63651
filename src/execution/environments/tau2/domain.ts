/**
 * A tau2 domain as an apb `Environment`: its files under `data/tau2/<domain>/` (db.json, tasks.json,
 * split_tasks.json, policy.md, tools.json) read once per process, the database validated with the
 * domain's zod model and frozen, and sessions opened as copy-on-write views of it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import type { Environment, EnvironmentSession, ToolKind, ToolSpec } from '../../environment.js';
import { freezeCollections, SessionDatabase, type Entity } from './database.js';
import { atPath, integerKeyedObjects, setKeyOrder } from './key-order.js';
import { parseTasks, TaskSplits } from './tasks.js';
import { callTool, type Toolkit } from './toolkit.js';

/** What a tau2 domain module supplies. */
export interface Tau2DomainDefinition {
  /** The folder name under data/tau2/ and the part after `tau2:` in the environment id. */
  domain: string;
  /** The zod model of db.json (tau2's `DB` subclass). */
  database: z.ZodType;
  toolkit: Toolkit;
}

/** The folder of a domain's data files (relative to this module in src/ and dist/ alike). */
export function tau2DataDir(domain: string): string {
  return fileURLToPath(new URL(`../../../../data/tau2/${domain}/`, import.meta.url));
}

/** A tools.json file: the tools as listed to a model (`{name, description, parameters}`). */
export const ToolSpecs = z.array(
  z.object({
    name: z.string(),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
  }),
);

/** Reads and parses a JSON data file. */
export function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

/** Parses db.json with the domain's model, keeps the file's order of integer-like keys, and freezes it. */
function loadDatabase(file: string, model: z.ZodType) {
  const text = readFileSync(file, 'utf8');
  const parsed = model.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new InputError(
      parsed.error.issues.slice(0, 10).map((issue) => ({
        file,
        line: 1,
        field: issue.path.map(String).join('.'),
        message: issue.message,
      })),
    );
  for (const { path, keys } of integerKeyedObjects(text)) {
    const object = atPath(parsed.data, path);
    if (object && typeof object === 'object') setKeyOrder(object, keys);
  }
  return freezeCollections(parsed.data as Record<string, Record<string, Entity>>);
}

/** Builds the environment of a tau2 domain from its data files. */
export function createTau2Environment(definition: Tau2DomainDefinition): Environment {
  const dir = tau2DataDir(definition.domain);
  const base = loadDatabase(`${dir}db.json`, definition.database);
  const splitsFile = `${dir}split_tasks.json`;
  const splits = TaskSplits.parse(readJson(splitsFile));
  const tasks = parseTasks(`${dir}tasks.json`, readJson(`${dir}tasks.json`), splits);
  const tools = ToolSpecs.parse(readJson(`${dir}tools.json`)) as ToolSpec[];
  const implemented = Object.keys(definition.toolkit.tools).sort();
  const listed = tools.map((tool) => tool.name).sort();
  if (implemented.join() !== listed.join())
    throw new Error(
      `tau2:${definition.domain}: tools.json lists ${listed.join(', ')} but the toolkit has ${implemented.join(', ')}`,
    );
  const toolkit = definition.toolkit;
  return {
    id: `tau2:${definition.domain}`,
    policy: readFileSync(`${dir}policy.md`, 'utf8'),
    tools,
    tasks,
    splits,
    toolKind: (name: string): ToolKind | undefined =>
      Object.hasOwn(toolkit.tools, name) ? toolkit.tools[name]!.kind : undefined,
    openSession(): EnvironmentSession {
      const db = new SessionDatabase(base);
      return { callTool: (name, args) => callTool(toolkit, db, name, args), database: () => db };
    },
  };
}
