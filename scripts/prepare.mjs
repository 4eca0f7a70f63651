#!/usr/bin/env node
/**
 * `npm install`'s `prepare`: builds dist/ (`npm run build`: the page script's bundle, then tsc) unless
 * the last build is newer than every input. Why: with npm 11, `npx apb` in the checkout installs the
 * checkout into npx's cache as a directory dependency, which runs `prepare` again — a silent 20–80 s
 * rebuild before the first command. After a build this script leaves `dist/.build-stamp`; while no
 * source, config or package file is newer than it, a second `prepare` is a no-op taking milliseconds.
 *
 *   node scripts/prepare.mjs           build when stale
 *   node scripts/prepare.mjs --force   build anyway
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
/** What the build reads: the sources, the build's configs and scripts, the package files. */
const INPUTS = [
  'src',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.client.json',
  'package.json',
  'package-lock.json',
  'scripts/build-client.mjs',
  'scripts/prepare.mjs',
];

/** The newest modification time (ms) under `file` (a file or a folder, walked). */
function newest(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, name)));
  return latest;
}

/** True when dist/ was built after every input last changed. */
export function upToDate() {
  if (!existsSync(STAMP) || !existsSync(path.join(ROOT, 'dist', 'index.js'))) return false;
  const built = statSync(STAMP).mtimeMs;
  return INPUTS.every((input) => newest(path.join(ROOT, input)) <= built);
}

function build() {
  const run = (file, args) =>
    execFileSync(process.execPath, [file, ...args], { cwd: ROOT, stdio: 'inherit' });
  run(path.join(ROOT, 'scripts', 'build-client.mjs'), []);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  run(tsc, ['-p', 'tsconfig.build.json']);
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--force') && upToDate())
    process.stdout.write('apb: dist/ is up to date with src/ (build skipped)\n');
  else build();
}
