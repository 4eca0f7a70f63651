// Preloaded (`node --require bench/peak-rss.cjs …`) into a process the scale benchmark measures: at
// exit it writes the kernel's peak RSS of this process (VmHWM, kB) and its CPU time (user + system,
// ms, every thread) to $APB_PEAK_RSS_FILE, so the figures are the kernel's, for a fresh process,
// with nothing sampled inside it. CPU time says what wall time would be on an idle machine.
const { readFileSync, writeFileSync } = require('node:fs');
process.on('exit', () => {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  const cpu = process.cpuUsage();
  if (process.env.APB_PEAK_RSS_FILE && match)
    writeFileSync(
      process.env.APB_PEAK_RSS_FILE,
      JSON.stringify({ peakKb: Number(match[1]), cpuMs: (cpu.user + cpu.system) / 1000 }),
    );
});
