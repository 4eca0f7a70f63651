#!/usr/bin/env node
// `npm run bench` (= `node --expose-gc bench/run.js`): the engine benchmark (bench/engine.mjs) at
// 0 ms and 200 ms latency, then the report benchmark (bench/report.mjs, `benchReport()`) when that
// file exists. Needs the build (`npm run build`). Figures and targets: docs/performance.md.
// Then the scale benchmark (bench/scale.mjs: memory at 1× and 20× the real tau2-bench-apb data and a
// 12-model leaderboard; 1 s latency at concurrency 256; a 600-RPM fake with and without --rpm).
// Options: --engine-only, --report-only, --scale-only, --no-scale, --repeat N (each engine
// configuration N times, targets on the median), --no-browser (passed to the report benchmark).
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = new Set(process.argv.slice(2));
const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(`${root}dist/pipeline/run.js`)) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
if (Number(process.env.APB_BENCH_SCALE ?? 1) !== 1) {
  console.error(
    'bench: APB_BENCH_SCALE is for investigations with bench/engine.mjs; the targets are for the full 4,209-case run',
  );
  process.exit(1);
}
if (!globalThis.gc)
  console.error(
    'bench: run with --expose-gc (as `npm run bench` does) for steadier memory figures',
  );

const machine = {
  node: process.version,
  cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
  memory_gb: Math.round(os.totalmem() / 2 ** 30),
  platform: `${os.platform()} ${os.release()}`,
};
console.log(`machine: ${JSON.stringify(machine)}`);
let failed = false;

if (!args.has('--report-only') && !args.has('--scale-only')) {
  const { benchEngine, TARGETS } = await import('./engine.mjs');
  console.log(
    '\nengine: 4,209 cases, openai-compatible planner against the fake server (separate process), concurrency 64;',
  );
  console.log(
    '        judged by the rules judge (4,209 calls) and by an LLM judge on the same fake (8,418 calls, as in a real run)',
  );
  const repeats = Number(process.argv[process.argv.indexOf('--repeat') + 1]) || 1;
  const result = await benchEngine({ quiet: true, repeats });
  console.log(
    `dataset: ${result.dataset.cases} cases, ${result.dataset.mb} MB; each configuration run ${repeats} time(s) in a fresh process`,
  );
  for (const run of result.runs) {
    const ratio =
      run.latency_ms > 0
        ? `  achieved/limit ${run.achieved_over_limit} (calls only ${run.call_phase_over_limit})`
        : '';
    console.log(
      `  ${String(run.latency_ms).padStart(3)} ms latency, judge ${run.judge}: ${run.calls} calls in ${run.wall_s} s = ${run.calls_per_s} calls/s  CPU ${run.cpu_ms_per_call} ms/call  peak RSS ${run.peak_rss_mb} MB${ratio}`,
    );
    if (run.unmatched_prompts > 0 || run.judgements_ok !== 4209)
      console.log(
        `      warning: ${run.unmatched_prompts} prompt(s) the fake did not recognise; ${run.predictions_ok} ok predictions`,
      );
  }
  // Targets are judged on the median of the repeats (this machine's figures vary by ±15 % from run to run).
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  const range = (values) =>
    values.length > 1 ? ` (${Math.min(...values)}–${Math.max(...values)})` : '';
  const groups = new Map();
  for (const run of result.runs)
    groups.set(`${run.latency_ms}|${run.judge}`, [
      ...(groups.get(`${run.latency_ms}|${run.judge}`) ?? []),
      run,
    ]);
  console.log('targets (median of the repeats):');
  for (const runs of groups.values()) {
    const { latency_ms: latency, judge } = runs[0];
    const figure = (key) =>
      `${median(runs.map((run) => run[key]))}${range(runs.map((run) => run[key]))}`;
    const checks =
      latency > 0
        ? [
            [
              `achieved/limit ${figure('achieved_over_limit')} ≥ ${TARGETS.limitRatio}`,
              median(runs.map((run) => run.achieved_over_limit)) >= TARGETS.limitRatio,
            ],
          ]
        : [
            [
              `CPU ${figure('cpu_ms_per_call')} ms/call ≤ ${TARGETS.cpuMsPerCall}`,
              median(runs.map((run) => run.cpu_ms_per_call)) <= TARGETS.cpuMsPerCall,
            ],
            [
              `peak RSS ${figure('peak_rss_mb')} MB ≤ ${TARGETS.peakRssMb}`,
              median(runs.map((run) => run.peak_rss_mb)) <= TARGETS.peakRssMb,
            ],
          ];
    for (const [text, met] of checks) {
      if (!met) failed = true;
      console.log(
        `  ${String(latency).padStart(3)} ms, judge ${judge}: ${met ? 'meets' : 'MISSES'} ${text}`,
      );
    }
  }
}

if (!args.has('--engine-only') && !args.has('--scale-only')) {
  const report = new URL('./report.mjs', import.meta.url);
  if (!existsSync(fileURLToPath(report))) {
    console.log('\nreport: bench/report.mjs is missing (the report benchmark is not written yet)');
  } else {
    console.log('\nreport:');
    const { benchReport } = await import(pathToFileURL(fileURLToPath(report)).href);
    if (typeof benchReport !== 'function')
      console.log('report: bench/report.mjs exports no benchReport()');
    else await benchReport({ browser: !args.has('--no-browser') });
  }
}

if (!args.has('--engine-only') && !args.has('--report-only') && !args.has('--no-scale')) {
  console.log('');
  const { benchScale } = await import('./scale.mjs');
  const scale = await benchScale();
  if (scale.failed) failed = true;
}

process.exitCode = failed ? 1 : 0;
