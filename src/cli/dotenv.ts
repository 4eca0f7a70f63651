/**
 * The `.env` convention users bring from other tools: `KEY=value` lines in the working directory's
 * `.env` fill variables that are not already set (a set variable always wins). Values are never
 * printed; keys read from it are redacted like any key (registered by providers/vendor-access.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { InputError } from '../errors.js';

/** A `.env` larger than this is not a list of variables. */
const MAX_DOTENV_BYTES = 1024 * 1024;

const problem = (file: string, message: string) =>
  new InputError([{ file, line: 0, field: '.env', message }]);

/** Reads `DIR/.env` into `env` without overriding; returns the names it set (never the values). */
export function loadDotenv(
  dir: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const file = path.join(dir, '.env');
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw problem(file, 'not a file (a .env holds KEY=value lines)');
    size = stat.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error instanceof InputError ? error : problem(file, 'cannot be read');
  }
  if (size > MAX_DOTENV_BYTES) throw problem(file, `${size} bytes, over the 1 MiB a .env may hold`);
  const parsed = parseEnv(readFileSync(file, 'utf8'));
  const set: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
