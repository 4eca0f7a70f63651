#!/usr/bin/env node
/**
 * Regenerates data/prices.json from the @pydantic/genai-prices catalogue (MIT, github.com/pydantic/genai-prices),
 * fetched with `npm pack` into a temporary directory: never a dependency of apb, nothing left behind.
 *
 *   node scripts/refresh-prices.mjs [--version X.Y.Z] [--dry-run]
 *
 * For every row of data/prices.json the model id is read off its pattern (`^gpt-4o(-\d{4}-\d{2}-\d{2})?$` →
 * `gpt-4o`) and priced by the catalogue for the row's provider: input, output and cached input per million tokens
 * (a tiered price's base tier: long-context tiers are not modelled, as the note says); batch prices are half the
 * standard ones (the rule of OpenAI's, Anthropic's and Google's batch APIs). A row the catalogue prices is marked
 * `confidence: high` (a preview model `unsure`); a row it does not know is kept as it was and listed. `as_of` becomes the catalogue
 * version's publication date. Prints what changed; `--dry-run` writes nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE = '@pydantic/genai-prices';
const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'prices.json');
const PRICE_KEYS = ['input', 'output', 'cached_input', 'batch_input', 'batch_output'];

function argsOf(argv) {
  const version = argv.includes('--version') ? argv[argv.indexOf('--version') + 1] : 'latest';
  return { version, dryRun: argv.includes('--dry-run') };
}

/** `npm pack` the catalogue into a fresh directory and import it; returns the module, its version and date. */
async function loadCatalogue(version) {
  const dir = mkdtempSync(path.join(tmpdir(), 'apb-prices-'));
  try {
    const spec = `${PACKAGE}@${version}`;
    const packed = JSON.parse(
      execFileSync('npm', ['pack', spec, '--json', '--silent', '--pack-destination', dir], {
        encoding: 'utf8',
      }),
    );
    const exact = packed[0].version;
    execFileSync('tar', ['xzf', path.join(dir, packed[0].filename), '-C', dir]);
    const times = JSON.parse(
      execFileSync('npm', ['view', `${PACKAGE}@${exact}`, 'time', '--json'], { encoding: 'utf8' }),
    );
    const catalogue = await import(
      pathToFileURL(path.join(dir, 'package', 'dist', 'index.js')).href
    );
    return { catalogue, version: exact, date: String(times[exact] ?? '').slice(0, 10) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The plain model id a row's pattern names: anchors, optional groups and escapes removed. */
export function modelIdOf(pattern) {
  return pattern
    .replace(/^\^/, '')
    .replace(/\$$/, '')
    .replace(/\((?:[^()]|\([^()]*\))*\)\?/g, '')
    .replace(/\\(.)/g, '$1');
}

const baseOf = (value) =>
  typeof value === 'number' ? value : typeof value?.base === 'number' ? value.base : undefined;
const round = (value) => Math.round(value * 1e6) / 1e6;

/** The row priced by the catalogue, or null when the catalogue has no price for it. */
function repriced(row, catalogue) {
  const id = modelIdOf(row.model);
  const found = catalogue.calcPrice({ input_tokens: 1 }, id, { providerId: row.provider });
  const prices = found?.model_price;
  const input = baseOf(prices?.input_mtok);
  const output = baseOf(prices?.output_mtok);
  if (input === undefined || output === undefined) return null;
  const cached = baseOf(prices.cache_read_mtok);
  return {
    provider: row.provider,
    model: row.model,
    input: round(input),
    output: round(output),
    ...(cached !== undefined ? { cached_input: round(cached) } : {}),
    batch_input: round(input / 2),
    batch_output: round(output / 2),
    // A preview's price may still change: an estimate, as before.
    confidence: /preview/.test(id) ? 'unsure' : 'high',
  };
}

/** The file as before: top keys pretty-printed, one row per line. */
function render(table) {
  const rows = table.models.map(
    (row) =>
      `    { ${Object.entries(row)
        .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
        .join(', ')} }`,
  );
  const head = Object.entries(table)
    .filter(([key]) => key !== 'models')
    .map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return `{\n${head.join(',\n')},\n  "models": [\n${rows.join(',\n')}\n  ]\n}\n`;
}

async function main() {
  const { version, dryRun } = argsOf(process.argv.slice(2));
  const table = JSON.parse(readFileSync(FILE, 'utf8'));
  const { catalogue, version: exact, date } = await loadCatalogue(version);
  const changes = [];
  const unknown = [];
  const models = table.models.map((row) => {
    const next = repriced(row, catalogue);
    if (!next) {
      unknown.push(`${row.provider}:${modelIdOf(row.model)}`);
      return row;
    }
    const moved = PRICE_KEYS.filter((key) => row[key] !== next[key]);
    if (moved.length > 0)
      changes.push(
        `${row.provider}:${modelIdOf(row.model)}: ${moved.map((key) => `${key} ${row[key] ?? '–'} → ${next[key] ?? '–'}`).join(', ')}`,
      );
    return next;
  });
  const next = {
    ...table,
    as_of: date,
    source: `${PACKAGE}@${exact} (MIT, github.com/pydantic/genai-prices), by scripts/refresh-prices.mjs`,
    models,
  };
  process.stdout.write(
    `${PACKAGE}@${exact} of ${date}: ${models.length - unknown.length} of ${models.length} row(s) priced, ${changes.length} changed\n`,
  );
  for (const line of changes) process.stdout.write(`  changed ${line}\n`);
  for (const id of unknown) process.stdout.write(`  not in the catalogue, kept: ${id}\n`);
  if (!dryRun) writeFileSync(FILE, render(next));
  if (!dryRun) process.stdout.write(`wrote ${path.relative(process.cwd(), FILE) || FILE}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((error) => {
    process.stderr.write(`refresh-prices: ${error.message}\n`);
    process.exit(1);
  });
