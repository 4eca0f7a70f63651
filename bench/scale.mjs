#!/usr/bin/env node
// Scale benchmark (issue 17), over the built CLI: every figure is a fresh `apb` process, its peak
// RSS the kernel's (VmHWM, written at exit by bench/peak-rss.cjs).
//   memory:     apb run / apb score / apb report --format html on tau2-bench-apb (769 cases) and on
//               the same repeated 20 times with new ids (15,380 cases; bench/scale-data.mjs writes it,
//               never committed), the 1× figures beside the 20× ones; a 12-model leaderboard of
//               50,508 judgements (bench/report-data.mjs) beside one model's 4,209.
//   throughput: 4,209 cases with an LLM judge (8,418 calls) at 1 s latency and concurrency 256
//               (bench/engine.mjs); a fake that enforces 600 requests per minute with 429s, driven
//               with --rpm 600 and with adaptive concurrency alone.
// Run alone (`node bench/scale.mjs [--memory-only|--throughput-only]`, after `npm run build`) or
// through bench/run.js. Figures and targets: docs/performance.md, "Scale".
import { fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODELS, benchCases, benchLine } from './report-data.mjs';
import { writeScaleDataset } from './scale-data.mjs';
import { mulberry32 } from '../dist/construction/random.js';
import { askerOf } from './engine.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'apb.js');
export const SCALE_TARGETS = {
  runRssMb: 250,
  reportRssMb: 400,
  reportSeconds: 8,
  leaderboardRssMb: 600,
  limitRatio: 0.9,
  rpmShare: 0.95,
  rpm429Share: 0.01,
  adaptiveShare: 0.85,
};

/** Runs `apb ARGS` in a fresh process; resolves with its wall time, the kernel's peak RSS and its exit code. */
export function measureApb(args, { quiet = true } = {}) {
  const rssFile = path.join(
    os.tmpdir(),
    `apb-peak-${process.pid}-${Math.random().toString(36).slice(2)}`,
  );
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--require', path.join(ROOT, 'bench', 'peak-rss.cjs'), BIN, ...args],
    {
      cwd: ROOT,
      env: { ...process.env, APB_PEAK_RSS_FILE: rssFile, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', quiet ? 'pipe' : 'inherit'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const wall = (performance.now() - started) / 1000;
      let measured = { peakKb: NaN, cpuMs: NaN };
      try {
        measured = JSON.parse(readFileSync(rssFile, 'utf8'));
        rmSync(rssFile, { force: true });
      } catch {
        // the process died before writing it
      }
      resolve({
        code,
        wall_s: Number(wall.toFixed(2)),
        cpu_s: Number((measured.cpuMs / 1000).toFixed(2)),
        peak_rss_mb: Math.round(measured.peakKb / 1024),
        stderr: code === 0 ? '' : stderr.slice(-2000),
      });
    });
  });
}

/** Starts bench/scale-server.mjs (the loopback fake in its own process). */
function startScaleServer() {
  const child = fork(path.join(ROOT, 'bench', 'scale-server.mjs'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    cwd: ROOT,
  });
  const ask = askerOf(child);
  return ask(null, 'ready').then((ready) => ({
    child,
    ask,
    baseUrl: ready.baseUrl,
    close: () => child.send({ close: true }),
  }));
}

const check = (value, target, below = true) => ({
  value,
  target,
  op: below ? '≤' : '≥',
  met: below ? value <= target : value >= target,
});

/** Writes the 12-model leaderboard (12 run directories of 4,209 judgement lines each); returns their paths. */
function writeLeaderboardRuns(dir) {
  const cases = benchCases();
  const next = mulberry32(11);
  return MODELS.map((model, index) => {
    const runDir = path.join(dir, `model-${index}`);
    mkdirSync(runDir, { recursive: true });
    writeFileSync(
      path.join(runDir, 'judgements.jsonl'),
      cases.map((entry) => JSON.stringify(benchLine(entry, model, index, next))).join('\n') + '\n',
    );
    return runDir;
  });
}

/** The memory figures: run, score and HTML report at 1× and 20×, and the 12-model leaderboard. */
export async function benchMemory({ log = console.log } = {}) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'apb-scale-'));
  const server = await startScaleServer();
  const figures = {};
  try {
    server.child.send({ configure: { latencyMs: 0 } });
    for (const times of [1, 20]) {
      const data = writeScaleDataset(path.join(work, `x${times}`), times);
      const out = path.join(work, `run-x${times}`);
      const run = await measureApb([
        'run',
        '--data',
        data.dir,
        '--model',
        'openai-compatible:scale-planner',
        '--base-url',
        server.baseUrl,
        '--judge',
        'rules',
        '--concurrency',
        '64',
        '--no-cache',
        '--quiet',
        '--out',
        out,
      ]);
      const score = await measureApb(['score', out]);
      const report = await measureApb([
        'report',
        out,
        '--format',
        'html',
        '--out',
        path.join(work, `report-x${times}.html`),
      ]);
      figures[`x${times}`] = {
        cases: data.cases,
        dataset_mb: Math.round(data.bytes / 1048576),
        run,
        score,
        report,
      };
      const at = (step) => `${step.peak_rss_mb} MB, ${step.wall_s} s (CPU ${step.cpu_s} s)`;
      log(
        `  ${String(data.cases).padStart(6)} cases: run ${at(run)}; score ${at(score)}; report --format html ${at(report)}`,
      );
      rmSync(data.dir, { recursive: true, force: true });
    }
    const dirs = writeLeaderboardRuns(path.join(work, 'leaderboard'));
    const one = await measureApb([
      'report',
      dirs[0],
      '--format',
      'html',
      '--out',
      path.join(work, 'one.html'),
    ]);
    const twelve = await measureApb([
      'report',
      ...dirs,
      '--format',
      'html',
      '--out',
      path.join(work, 'leaderboard.html'),
    ]);
    figures.leaderboard = {
      one_model: one,
      twelve_models: twelve,
      judgements: dirs.length * benchCases().length,
    };
    log(
      `  leaderboard --format html: 1 model (4,209 judgements) ${one.peak_rss_mb} MB, ${one.wall_s} s (CPU ${one.cpu_s} s); 12 models (${figures.leaderboard.judgements.toLocaleString('en-US')}) ${twelve.peak_rss_mb} MB, ${twelve.wall_s} s (CPU ${twelve.cpu_s} s)`,
    );
  } finally {
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
  const { x1, x20, leaderboard } = figures;
  for (const step of ['run', 'score', 'report'])
    figures[`${step}_ratio`] = {
      rss: Number((x20[step].peak_rss_mb / x1[step].peak_rss_mb).toFixed(2)),
      time: Number((x20[step].wall_s / x1[step].wall_s).toFixed(2)),
    };
  figures.targets = {
    run_rss_mb: check(x20.run.peak_rss_mb, SCALE_TARGETS.runRssMb),
    report_rss_mb: check(x20.report.peak_rss_mb, SCALE_TARGETS.reportRssMb),
    report_seconds: check(x20.report.wall_s, SCALE_TARGETS.reportSeconds),
    leaderboard_rss_mb: check(
      leaderboard.twelve_models.peak_rss_mb,
      SCALE_TARGETS.leaderboardRssMb,
    ),
  };
  return figures;
}

/** The rate-limit figures: 600 requests per minute enforced by the fake, driven with `--rpm 600` and without. */
async function benchRpm({ log }) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'apb-rpm-'));
  const server = await startScaleServer();
  const results = {};
  try {
    const data = writeScaleDataset(path.join(work, 'x1'), 1);
    for (const [name, extra] of [
      ['rpm', ['--rpm', '600']],
      ['adaptive', []],
    ]) {
      server.child.send({ reset: true, configure: { latencyMs: 200, rpm: 600 } });
      // 100 cases per split: 600 calls, a minute at 600 RPM.
      const run = await measureApb([
        'run',
        '--data',
        data.dir,
        '--limit',
        '100',
        '--model',
        'openai-compatible:scale-planner',
        '--base-url',
        server.baseUrl,
        '--judge',
        'rules',
        '--concurrency',
        '64',
        '--no-cache',
        '--quiet',
        '--out',
        path.join(work, name),
        ...extra,
      ]);
      const stats = await server.ask({ stats: true }, 'stats');
      const minutes = (stats.lastOkAt - stats.firstOkAt) / 60_000;
      const achieved = (stats.ok - 1) / minutes;
      results[name] = {
        ...run,
        ok: stats.ok,
        answered_429: stats.limited,
        share_429: Number((stats.limited / (stats.ok + stats.limited)).toFixed(4)),
        achieved_rpm: Number(achieved.toFixed(1)),
        share_of_600: Number((achieved / 600).toFixed(3)),
        max_in_flight: stats.maxInFlight,
      };
      log(
        `  600 RPM enforced, ${name === 'rpm' ? '--rpm 600' : 'adaptive concurrency (no --rpm)'}: ${results[name].achieved_rpm} RPM = ${results[name].share_of_600} of 600; ${stats.limited} of ${stats.ok + stats.limited} requests answered 429 (${(100 * results[name].share_429).toFixed(2)} %)`,
      );
    }
  } finally {
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
  return results;
}

/** The throughput figures: 1 s latency at concurrency 256 (engine benchmark), then the RPM runs. */
export async function benchThroughput({ log = console.log } = {}) {
  const { benchEngine } = await import('./engine.mjs');
  const engine = await benchEngine({
    latencies: [1000],
    concurrency: 256,
    judges: ['openai-compatible:bench-judge'],
    quiet: true,
  });
  const run = engine.runs[0];
  log(
    `  1 s latency, concurrency 256, LLM judge: ${run.calls} calls in ${run.wall_s} s (limit ${run.limit_s} s): achieved/limit ${run.achieved_over_limit} (calls only ${run.call_phase_over_limit}), ${run.max_in_flight} in flight at most, peak RSS ${run.peak_rss_mb} MB`,
  );
  const rpm = await benchRpm({ log });
  return {
    latency_1s: run,
    rpm,
    targets: {
      achieved_over_limit: check(run.achieved_over_limit, SCALE_TARGETS.limitRatio, false),
      rpm_share: check(rpm.rpm.share_of_600, SCALE_TARGETS.rpmShare, false),
      rpm_429_share: check(rpm.rpm.share_429, SCALE_TARGETS.rpm429Share),
      adaptive_share: check(rpm.adaptive.share_of_600, SCALE_TARGETS.adaptiveShare, false),
    },
  };
}

/** Both parts; prints a line per figure and whether each target is met. */
export async function benchScale({ memory = true, throughput = true, log = console.log } = {}) {
  const result = {};
  if (memory) {
    log('scale, memory (fresh processes, kernel peak RSS):');
    result.memory = await benchMemory({ log });
    const { run_ratio: run, report_ratio: report, score_ratio: score } = result.memory;
    log(
      `  20× / 1×: run RSS ${run.rss}, time ${run.time}; score RSS ${score.rss}, time ${score.time}; report RSS ${report.rss}, time ${report.time}`,
    );
  }
  if (throughput) {
    log('scale, throughput:');
    result.throughput = await benchThroughput({ log });
  }
  const targets = { ...result.memory?.targets, ...result.throughput?.targets };
  for (const [name, { value, target, op, met }] of Object.entries(targets))
    log(`  ${met ? 'meets' : 'MISSES'} ${name}: ${value} (target ${op} ${target})`);
  result.failed = Object.values(targets).some((entry) => !entry.met);
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const result = await benchScale({
    memory: !process.argv.includes('--throughput-only'),
    throughput: !process.argv.includes('--memory-only'),
  });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  process.exitCode = result.failed ? 1 : 0;
}
