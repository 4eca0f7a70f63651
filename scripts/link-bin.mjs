#!/usr/bin/env node
// Links node_modules/.bin/apb to this checkout's bin/apb.js after `npm install`, so that
// `npx apb …` in the repository runs the checkout at once: without the link npx installs the
// checkout into its own cache and rebuilds it there (a silent 20–60 s on every first call).
import { existsSync, lstatSync, mkdirSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Installed as someone else's dependency, npm links the bin itself: nothing to do.
if (root.split(path.sep).includes('node_modules')) process.exit(0);
const binDir = path.join(root, 'node_modules', '.bin');
const link = path.join(binDir, 'apb');
mkdirSync(binDir, { recursive: true });
if (existsSync(link) || isDanglingLink(link)) unlinkSync(link);
symlinkSync(path.join('..', '..', 'bin', 'apb.js'), link);

function isDanglingLink(file) {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
