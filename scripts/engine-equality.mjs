#!/usr/bin/env node
/**
 * The engine's before/after equality check (issue 20, item 6). `capture OUT [DATA...]` runs the
 * built CLI (`bin/apb.js` over `dist/`) over each dataset directory (default: the sample) with
 * `baseline:oracle` and with a loopback fake model, judged by the rules judge and by an LLM judge
 * played by the same fake, and writes each run's judgements and scores with the fields that vary
 * between runs (timestamps, durations, latencies, paths) removed, and the paper's tables as
 * `apb report --format csv` writes them (see REPORTER). `compare A B` diffs two captures and exits
 * 1 on any difference.
 *
 * The fake model answers deterministically from a hash of the request: a planner call gets one of
 * a few fixed plans (right or wrong for the case alike), a judge call a verdict whose correctness
 * follows the hash, so the figures exercise both verdicts without any network.
 */
import { spawnSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// The CLI that renders the tables: this checkout's, or (APB_EQUALITY_REPORTER=path/to/bin/apb.js)
// another's, so that a capture of an older engine is rendered by the newer renderer and the tables
// compare what the two engines wrote, not how two releases draw it.
const REPORTER = process.env.APB_EQUALITY_REPORTER ?? path.join(REPO, 'bin', 'apb.js');
const VARYING =
  /(^|_)(at|time|timestamp|duration|ms|latency|elapsed|started|finished|dir|path|out)$|_ms$|_at$/;

/** Drops the fields that differ between two identical runs (when, how long, where). */
function stable(value) {
  if (Array.isArray(value)) return value.map(stable);
  if (!value || typeof value !== 'object') return value;
  const out = {};
  for (const key of Object.keys(value).sort()) {
    if (VARYING.test(key) || key === 'usage' || key === 'cache') continue;
    out[key] = stable(value[key]);
  }
  return out;
}

/**
 * A CSV table without what differs between two identical runs: latency columns, the fake's port,
 * and the run's own folders (the work folder, the checkout).
 */
function stableCsv(text, folders) {
  const rows = text.split('\n').map((row) => row.split(','));
  const keep = rows[0].map((name) => !/latency|_ms$/.test(name));
  let out = rows.map((row) => row.filter((_, index) => keep[index] ?? true).join(',')).join('\n');
  for (const folder of folders) out = out.split(folder).join('<dir>');
  return out.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
}

const digest = (text) => createHash('sha256').update(text).digest('hex');

/** The fake's reply text for one chat request. */
function replyFor(body) {
  const text = JSON.stringify(body.messages ?? body);
  const h = parseInt(digest(text).slice(0, 8), 16);
  if (String(body.model).includes('judge')) {
    const ok = h % 3 !== 0;
    const errors = { E1: !ok, E2: false, E3: false, E4: false, E5: false, E6: false };
    return JSON.stringify({
      reasoning: `fake verdict ${h % 97}`,
      errors,
      is_correct: ok,
      grade: ok ? 1 : 0,
    });
  }
  const plans = [
    'I cannot solve this with the given tools. REJECT',
    '{"plan": [{"tool": "SearchMovie", "arguments": {"query": "x"}}]}',
    '```json\n[{"name": "SearchPerson", "arguments": {"query": "a"}}]\n```',
    'Step 1: search.',
  ];
  return plans[h % plans.length];
}

/** A loopback OpenAI-compatible chat server answering with `replyFor`. */
function startFake() {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      const content = replyFor(body);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'fake',
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${server.address().port}/v1` }),
    ),
  );
}

function runApb(args, env, bin = path.join(REPO, 'bin', 'apb.js')) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: REPO,
      env: {
        ...process.env,
        NO_COLOR: '1',
        OPENAI_API_KEY: '',
        ANTHROPIC_API_KEY: '',
        APB_API_KEY: 'fake',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const readJsonl = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

async function capture(outDir, datasets) {
  const fake = await startFake();
  const work = mkdtempSync(path.join(tmpdir(), 'apb-equality-'));
  const cache = mkdtempSync(path.join(tmpdir(), 'apb-equality-cache-'));
  mkdirSync(outDir, { recursive: true });
  const summary = {};
  const combos = [
    ['oracle-rules', ['--model', 'baseline:oracle', '--judge', 'rules']],
    [
      'fake-rules',
      ['--model', 'openai-compatible:fake-planner', '--base-url', fake.url, '--judge', 'rules'],
    ],
    [
      'fake-llm',
      [
        '--model',
        'openai-compatible:fake-planner',
        '--base-url',
        fake.url,
        '--judge',
        'openai-compatible:fake-judge',
        '--judge-base-url',
        fake.url,
      ],
    ],
  ];
  for (const data of datasets) {
    const name = data === 'sample' ? 'sample' : path.basename(path.resolve(data));
    for (const [label, args] of combos) {
      const out = path.join(work, `${name}-${label}`);
      const result = await runApb(
        ['run', '--data', data, '--out', out, '--quiet', '--concurrency', '4', ...args],
        { APB_CACHE_DIR: cache },
      );
      const key = `${name}/${label}`;
      const judgements = readJsonl(path.join(out, 'judgements.jsonl'))
        .map(stable)
        .sort((a, b) =>
          `${a.split}/${a.id}/${a.judge_model}`.localeCompare(
            `${b.split}/${b.id}/${b.judge_model}`,
          ),
        );
      const scores = stable(JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8')));
      const text = `${judgements.map((line) => JSON.stringify(line)).join('\n')}\n`;
      writeFileSync(path.join(outDir, `${name}-${label}.judgements.jsonl`), text);
      writeFileSync(
        path.join(outDir, `${name}-${label}.scores.json`),
        `${JSON.stringify(scores, null, 2)}\n`,
      );
      // The paper's tables as `apb report --format csv` writes them, one file per table.
      const tables = path.join(work, `${name}-${label}.tables`);
      await runApb(['report', out, '--format', 'csv', '--out', tables], {}, REPORTER);
      for (const file of readdirSync(tables).sort()) {
        const csv = stableCsv(readFileSync(path.join(tables, file), 'utf8'), [work, REPO]);
        writeFileSync(path.join(outDir, `${name}-${label}.table.${file}`), csv);
      }
      const correct = judgements.filter((line) => line.judgement?.is_correct === true).length;
      summary[key] = {
        exit: result.code,
        judgements: judgements.length,
        correct,
        judgements_sha: digest(text).slice(0, 12),
      };
      process.stderr.write(
        `${key}: exit ${result.code}, ${judgements.length} judgements, ${correct} correct\n`,
      );
    }
  }
  fake.server.close();
  writeFileSync(path.join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
}

function compare(a, b) {
  let differences = 0;
  for (const file of readdirSync(a).sort()) {
    const left = readFileSync(path.join(a, file), 'utf8');
    let right;
    try {
      right = readFileSync(path.join(b, file), 'utf8');
    } catch {
      right = null;
    }
    if (left === right) continue;
    differences += 1;
    process.stdout.write(`differs: ${file}\n`);
    if (right !== null && !file.endsWith('summary.json'))
      spawnSync('diff', ['-u', path.join(a, file), path.join(b, file)], {
        stdio: ['ignore', 'inherit', 'inherit'],
      });
  }
  process.stdout.write(differences === 0 ? 'identical\n' : `${differences} file(s) differ\n`);
  process.exitCode = differences === 0 ? 0 : 1;
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'capture') await capture(rest[0], rest.length > 1 ? rest.slice(1) : ['sample']);
else if (command === 'compare') compare(rest[0], rest[1]);
else {
  process.stderr.write('usage: engine-equality.mjs capture OUT [DATA...] | compare A B\n');
  process.exitCode = 2;
}
