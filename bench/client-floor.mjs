#!/usr/bin/env node
// The floor of achieved/limit on this machine: a minimal client (plain node:http, keep-alive,
// `concurrency` loops posting one fixed ~20 KB body) against the engine benchmark's fake server at
// the same latency and call count. What it misses of 1.0 is the fake server's and the shared
// cores' share, not the harness's (docs/performance.md). `node bench/client-floor.mjs [latencyMs]`.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer } from './engine.mjs';

const latencyMs = Number(process.argv[2] ?? 200);
const concurrency = 64;
const work = mkdtempSync(path.join(os.tmpdir(), 'apb-bench-floor-'));
const server = await startServer(work);
try {
  server.child.send({ reset: true, configure: { latencyMs } });
  const url = new URL(`${server.baseUrl}/chat/completions`);
  const body = JSON.stringify({
    model: 'bench-planner',
    messages: [{ role: 'user', content: 'x'.repeat(20_000) }],
  });
  const agent = new http.Agent({ keepAlive: true });
  const call = () =>
    new Promise((resolve, reject) => {
      const request = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          response.resume();
          response.on('end', resolve);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  let sent = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < server.cases) {
        sent += 1;
        await call();
      }
    }),
  );
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const limitMs = (server.cases * latencyMs) / concurrency;
  console.log(
    JSON.stringify({
      latency_ms: latencyMs,
      calls: server.cases,
      concurrency,
      wall_s: Number((wallMs / 1000).toFixed(2)),
      cpu_ms_per_call: Number(((used.user + used.system) / 1000 / server.cases).toFixed(3)),
      achieved_over_limit: Number((limitMs / wallMs).toFixed(3)),
    }),
  );
  agent.destroy();
} finally {
  server.child.send({ close: true });
  rmSync(work, { recursive: true, force: true });
}
