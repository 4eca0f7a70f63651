/**
 * `prepare` (scripts/prepare.mjs) builds only when dist/ is stale: npm 11's `npx apb` reruns
 * `prepare` on its first call in a checkout, and that must not rebuild what `npm install` built.
 * Run on a copy of the script in a scratch root: an up-to-date stamp skips the build; a source
 * newer than the stamp makes it build (which fails there: the scratch root has no build script).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../engine/helpers.js';

function scratchRoot(): string {
  const root = tempDir('apb-prepare-');
  mkdirSync(path.join(root, 'scripts'));
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'dist'));
  copyFileSync('scripts/prepare.mjs', path.join(root, 'scripts', 'prepare.mjs'));
  writeFileSync(path.join(root, 'src', 'index.ts'), 'export {};\n');
  writeFileSync(path.join(root, 'package.json'), '{}\n');
  writeFileSync(path.join(root, 'dist', 'index.js'), 'export {};\n');
  const old = new Date(Date.now() - 60_000);
  for (const file of ['src/index.ts', 'src', 'package.json', 'scripts/prepare.mjs', 'scripts'])
    utimesSync(path.join(root, file), old, old);
  writeFileSync(path.join(root, 'dist', '.build-stamp'), 'built\n');
  return root;
}

const prepare = (root: string) =>
  spawnSync(process.execPath, [path.join(root, 'scripts', 'prepare.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });

describe('scripts/prepare.mjs', () => {
  it('skips the build while dist/ is newer than every input, and builds once a source is newer', () => {
    const root = scratchRoot();
    const fresh = prepare(root);
    expect(fresh.status, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain('dist/ is up to date with src/ (build skipped)');
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'src', 'index.ts'), later, later);
    const stale = prepare(root);
    expect(stale.stdout).not.toContain('build skipped');
    expect(stale.status).not.toBe(0);
    expect(stale.stderr).toContain('build-client.mjs');
  });
});
