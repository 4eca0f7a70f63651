#!/usr/bin/env node
// Engine benchmark at APB scale (plain Node ESM over the built dist/): 4,209 cases in the released
// layout and the paper's split proportions, planned by `openai-compatible:bench-planner` against
// the loopback fake model server (a separate process), judged once by the rules judge (4,209
// planner calls) and once by an LLM judge on the same fake (8,418 calls, the shape of a real run).
// Each configuration runs in a fresh harness process, which measures itself: wall time, calls/s, CPU ms per call
// (process.cpuUsage), peak RSS (the kernel's high-water mark) and achieved/limit, where
// limit = calls × latency / concurrency is the best possible wall time. Run alone
// (`node --expose-gc bench/engine.mjs`, after `npm run build`) or through bench/run.js.
import { fork } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SPLIT_SIZES } from './apb-scale.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const words = (text) => (text ?? '').split(' ').filter(Boolean);
// Knobs for investigations (docs/performance.md): another build to measure (A/B comparisons on a
// noisy machine), extra Node flags for the harness or the fake server, a CPU-profile directory, and
// a dataset scale (e.g. 0.5 or 2 times the 4,209 cases, to tell per-call from per-run costs).
const KNOBS = {
  scale: Number(process.env.APB_BENCH_SCALE ?? 1),
  dist: process.env.APB_BENCH_DIST ?? path.join(ROOT, 'dist'),
  harnessFlags: [
    ...(process.env.APB_BENCH_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.APB_BENCH_PROFILE}`]
      : []),
    ...words(process.env.APB_BENCH_NODE_FLAGS),
  ],
  serverFlags: words(process.env.APB_BENCH_SERVER_FLAGS),
};
if (!(Number.isFinite(KNOBS.scale) && KNOBS.scale > 0))
  throw new Error(
    `APB_BENCH_SCALE must be a positive number (got "${process.env.APB_BENCH_SCALE}")`,
  );
const dist = (file) => pathToFileURL(path.join(KNOBS.dist, file)).href;

export const TARGETS = { limitRatio: 0.9, cpuMsPerCall: 1, peakRssMb: 200 };

/** Cases per split of the benchmark dataset: the paper's sizes, times the scale knob. */
const SIZES = Object.fromEntries(
  Object.entries(SPLIT_SIZES).map(([split, size]) => [
    split,
    Math.max(1, Math.round(size * KNOBS.scale)),
  ]),
);
const TOTAL_CASES = Object.values(SIZES).reduce((sum, size) => sum + size, 0);

/**
 * Writes the benchmark dataset: each split cycles through the built-in sample's records of that
 * split (real shapes and sizes: tools with schemas, trajectories, images), each copy with its own
 * id and a numbered query so every prompt differs. Returns the directory and its size.
 */
export function writeBenchDataset(dir) {
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  cpSync(path.join(ROOT, 'sample', 'assets'), path.join(dir, 'assets'), { recursive: true });
  let bytes = 0;
  for (const [split, size] of Object.entries(SIZES)) {
    const sources = readFileSync(path.join(ROOT, 'sample', 'data', `${split}.jsonl`), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const lines = [];
    for (let index = 0; index < size; index += 1) {
      const record = structuredClone(sources[index % sources.length]);
      record.id = `${record.id}-bench-${index}`;
      record.query = `${record.query} (request ${index + 1})`;
      lines.push(JSON.stringify(record));
    }
    const text = `${lines.join('\n')}\n`;
    bytes += Buffer.byteLength(text);
    writeFileSync(path.join(dir, 'data', `${split}.jsonl`), text);
  }
  return { dir, cases: TOTAL_CASES, bytes };
}

/** Starts the fake model server process (which writes the dataset into `datasetDir`) and resolves once it serves it. */
export function startServer(datasetDir) {
  const child = fork(path.join(ROOT, 'bench', 'fake-model-server.mjs'), [datasetDir], {
    execArgv: ['--import', 'tsx', ...KNOBS.serverFlags],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    cwd: ROOT,
  });
  const ask = askerOf(child);
  return ask(null, 'ready').then((ready) => ({
    child,
    ask,
    baseUrl: ready.baseUrl,
    cases: ready.cases,
    bytes: ready.bytes,
  }));
}

/** `ask(message, key)` for a forked server process: sends `message` (if any) and resolves with the first reply carrying `key`. */
export function askerOf(child) {
  return (message, key) =>
    new Promise((resolve) => {
      const onMessage = (reply) => {
        if (reply[key] === undefined) return;
        child.off('message', onMessage);
        resolve(reply[key]);
      };
      child.on('message', onMessage);
      if (message) child.send(message);
    });
}

/**
 * Peak RSS of this process over a run, in MB. On Linux the kernel keeps the high-water mark
 * (VmHWM), which we reset before the run, so measuring costs the harness nothing; elsewhere the
 * RSS is sampled every 10 ms.
 */
function rssPeak() {
  const start = process.memoryUsage.rss();
  const mb = (bytes) => Math.round(bytes / 1048576);
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return () => {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
      return { startMb: mb(start), peakMb: mb(Number(hwm[1]) * 1024), method: 'VmHWM' };
    };
  } catch {
    let peak = start;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
    return () => {
      clearInterval(timer);
      return {
        startMb: mb(start),
        peakMb: mb(Math.max(peak, process.memoryUsage.rss())),
        method: 'sampled every 10 ms',
      };
    };
  }
}

/** One measured run of the pipeline (runEvaluation, exactly as `apb run` wires it) at one latency. */
/**
 * One run of the pipeline (runEvaluation, exactly as `apb run` wires it), in a fresh process so
 * that neither the CPU nor the memory of another configuration is counted. Returns what the
 * harness measured of itself.
 */
async function runHarness({ datasetDir, baseUrl, concurrency, judgeSpec }) {
  // Modules loaded before measuring, as `apb run` has them loaded before it starts a run.
  const { runEvaluation } = await import(dist('pipeline/run.js'));
  const { createRunProviders } = await import(dist('cli/run-providers.js'));
  const { resolveJudge, resolvePlanner } = await import(dist('cli/resolve.js'));
  const { DEFAULT_PROMPT_OPTIONS } = await import(dist('settings/prompt.js'));
  const { limitHeapGrowth } = await import(dist('cli/heap.js'));
  limitHeapGrowth(); // as `apb run` does before it starts
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'apb-bench-run-'));
  globalThis.gc?.();
  const stopSampling = rssPeak();
  const ruBefore = process.resourceUsage();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const startedAt = Date.now();
  const providers = createRunProviders({
    concurrency,
    timeoutMs: 120_000,
    maxRetries: 6,
    cache: false,
    cacheDir: outDir,
  });
  const planner = resolvePlanner('openai-compatible:bench-planner', providers, {
    baseUrl,
    sampling: {},
    json: false,
  });
  const judge = resolveJudge([judgeSpec], providers, { baseUrl, protocol: 'paper', blind: false });
  const summary = await runEvaluation(
    {
      outDir,
      selection: { datasetDir, splits: Object.keys(SPLIT_SIZES), repeats: 1 },
      concurrency,
      promptOptions: DEFAULT_PROMPT_OPTIONS,
      skipInvalid: false,
      retryErrors: false,
      baseUrl,
      judgeBaseUrl: null,
      judgeBlind: false,
      judgeVersion: judge.version,
      judgeIds: [judgeSpec],
    },
    { planner, judge },
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const ru = process.resourceUsage();
  const usage = {
    userMs: (ru.userCPUTime - ruBefore.userCPUTime) / 1000,
    systemMs: (ru.systemCPUTime - ruBefore.systemCPUTime) / 1000,
    minorFaults: ru.minorPageFault - ruBefore.minorPageFault,
  };
  const rss = stopSampling();
  providers.close();
  rmSync(outDir, { recursive: true, force: true });
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    usage,
    rss,
    startedAt,
    counts: summary.manifest.counts,
  };
}

/** Forks this file as a harness process for one configuration and resolves with its figures. */
function forkHarness(config) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--harness', JSON.stringify(config)], {
      execArgv: ['--expose-gc', ...KNOBS.harnessFlags],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', resolve);
    child.once('exit', (code) =>
      code === 0 ? undefined : reject(new Error(`harness exited with ${code}`)),
    );
  });
}

async function measure({ datasetDir, server, latencyMs, concurrency, judgeSpec }) {
  const serverBefore = await server.ask({ stats: true }, 'stats');
  server.child.send({ reset: true, configure: { latencyMs } });
  const { wallMs, cpuMs, usage, rss, startedAt, counts } = await forkHarness({
    datasetDir,
    baseUrl: server.baseUrl,
    concurrency,
    judgeSpec,
  });
  const stats = await server.ask({ stats: true }, 'stats');
  const calls = stats.requests;
  const limitMs = (calls * latencyMs) / concurrency;
  return {
    latency_ms: latencyMs,
    judge: judgeSpec,
    concurrency,
    calls,
    predictions_ok: counts.predictions.ok,
    judgements_ok: counts.judgements.ok,
    unmatched_prompts: stats.unmatched,
    max_in_flight: stats.maxInFlight,
    fake_server_cpu_s: Number(((stats.cpuMs - serverBefore.cpuMs) / 1000).toFixed(2)),
    wall_s: Number((wallMs / 1000).toFixed(2)),
    calls_per_s: Number((calls / (wallMs / 1000)).toFixed(1)),
    cpu_ms_per_call: Number((cpuMs / calls).toFixed(3)),
    cpu_ms_per_case: Number((cpuMs / counts.cases).toFixed(3)),
    // The kernel's split of that CPU, and the page faults (a growing heap shows there).
    user_cpu_s: Number((usage.userMs / 1000).toFixed(2)),
    system_cpu_s: Number((usage.systemMs / 1000).toFixed(2)),
    minor_page_faults: usage.minorFaults,
    peak_rss_mb: rss.peakMb,
    rss_at_start_mb: rss.startMb,
    rss_method: rss.method,
    limit_s: Number((limitMs / 1000).toFixed(2)),
    // Best possible wall time over the achieved one: 1.0 means the endpoint never waited on the harness.
    achieved_over_limit: latencyMs > 0 ? Number((limitMs / wallMs).toFixed(3)) : null,
    // The same from the first request to the last reply, i.e. without the up-front validation of the dataset.
    first_request_s: Number(((stats.firstAt - startedAt) / 1000).toFixed(2)),
    call_phase_s: Number(((stats.lastAt + latencyMs - stats.firstAt) / 1000).toFixed(2)),
    call_phase_over_limit:
      latencyMs > 0
        ? Number((limitMs / (stats.lastAt + latencyMs - stats.firstAt)).toFixed(3))
        : null,
  };
}

/** Runs the engine benchmark at each latency and judge, `repeats` times; returns every run's figures and whether each target is met. */
export async function benchEngine({
  latencies = [0, 200],
  concurrency = 64,
  quiet = false,
  judges = ['rules', 'openai-compatible:bench-judge'],
  repeats = 1,
} = {}) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'apb-bench-data-'));
  // The server process writes the dataset, then serves it.
  const server = await startServer(work);
  const dataset = { dir: work, cases: TOTAL_CASES, bytes: server.bytes };
  if (server.cases !== dataset.cases)
    throw new Error(`fake server read ${server.cases} cases of ${dataset.cases}`);
  const runs = [];
  try {
    // Repeats go round all configurations, so a slow spell of the machine does not hit one configuration only.
    const configurations = latencies.flatMap((latency) => judges.map((judge) => [latency, judge]));
    for (const [latencyMs, judgeSpec] of Array.from(
      { length: repeats },
      () => configurations,
    ).flat()) {
      const figures = await measure({
        datasetDir: dataset.dir,
        server,
        latencyMs,
        concurrency,
        judgeSpec,
      });
      figures.targets =
        latencyMs > 0
          ? { achieved_over_limit: figures.achieved_over_limit >= TARGETS.limitRatio }
          : {
              cpu_ms_per_call: figures.cpu_ms_per_call <= TARGETS.cpuMsPerCall,
              peak_rss_mb: figures.peak_rss_mb <= TARGETS.peakRssMb,
            };
      runs.push(figures);
      if (!quiet) console.log(JSON.stringify(figures));
    }
  } finally {
    server.child.send({ close: true });
    rmSync(work, { recursive: true, force: true });
  }
  return {
    dataset: { cases: dataset.cases, mb: Number((dataset.bytes / 1048576).toFixed(1)) },
    runs,
  };
}

if (
  import.meta.url === pathToFileURL(process.argv[1] ?? '').href &&
  process.argv[2] === '--harness'
) {
  process.send(await runHarness(JSON.parse(process.argv[3])));
  process.exit(0);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  statSync(path.join(ROOT, 'dist', 'pipeline', 'run.js'));
  const result = await benchEngine();
  console.log(JSON.stringify(result, null, 2));
}
