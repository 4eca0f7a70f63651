#!/usr/bin/env node
// How much of the engine benchmark's CPU per call (0 ms latency, concurrency 64, one call per case
// of the 4,209) the required stack takes before apb adds anything: a ladder of minimal clients,
// each in a fresh process against the same fake server (docs/performance.md, "The floor of the
// required stack").
//   http         apb's lean fetch over node:http, one fixed body of the benchmark's mean prompt size
//   sdk          + the AI SDK's doGenerate (the maintained SDK the engine must use), same fixed prompt
//   sdk-dataset  + the dataset streamed (apb's line reader, JSON.parse), a prompt made of the raw
//                  fields and attachments
//   sdk-apb-case + apb's case parser (trusted, as in a run's second pass) and prompt builder instead
// Every level appends one result line per call. None validates, judges, retries, fingerprints or
// writes a second line; `apb run` does all of that.
// `node --expose-gc bench/stack-floor.mjs [--repeat N]` after `npm run build`.
import { fork } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SPLIT_SIZES } from './apb-scale.mjs';
import { startServer } from './engine.mjs';

const LEVELS = ['http', 'sdk', 'sdk-dataset', 'sdk-apb-case'];
const CONCURRENCY = 64;
const dist = (file) => new URL(`../dist/${file}`, import.meta.url).href;

/** Runs `perCase` for every item of `items` with `CONCURRENCY` in flight; resolves with the number of calls. */
async function pool(items, perCase) {
  const inFlight = new Set();
  let slotFreed = null;
  let calls = 0;
  for await (const item of items) {
    while (inFlight.size >= CONCURRENCY) await new Promise((resolve) => (slotFreed = resolve));
    const task = perCase(item).then(() => {
      calls += 1;
      inFlight.delete(task);
      slotFreed?.();
    });
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  return calls;
}

/** The raw record's own fields as one prompt: system prompt, tools, query, trajectory, attachments. */
function rawPrompt(record, datasetDir, images) {
  const content = [
    {
      type: 'text',
      text: `${record.system_prompt ?? ''}\nTools:\n${record.tools_json ?? '[]'}\nQuery: ${record.query}\n${record.trajectory_prefix_json ?? ''}\nAnswer with JSON.`,
    },
  ];
  for (const entry of record.files ?? []) {
    const file = typeof entry === 'string' ? entry : entry.path;
    const full = path.join(datasetDir, file);
    if (file.endsWith('.png')) {
      if (!images.has(full)) images.set(full, readFileSync(full).toString('base64'));
      content.push({ type: 'file', data: images.get(full), mediaType: 'image/png' });
    } else content.push({ type: 'text', text: readFileSync(full, 'utf8') });
  }
  return [{ role: 'user', content }];
}

/** One level in this (fresh) process: modules loaded first, then CPU measured over the calls alone. */
async function runLevel({ level, baseUrl, datasetDir, cases, promptChars }) {
  const { nodeFetch } = await import(dist('providers/node-fetch.js'));
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const { readLines } = await import(dist('jsonl-lines.js'));
  const { readCases } = await import(dist('dataset/read-cases.js'));
  const { plannerPromptOf } = await import(dist('pipeline/evaluate-case.js'));
  const { toSdkPrompt } = await import(dist('providers/sdk-adapter.js'));
  const { DEFAULT_PROMPT_OPTIONS } = await import(dist('settings/prompt.js'));
  const model = createOpenAICompatible({
    name: 'floor',
    baseURL: baseUrl,
    fetch: nodeFetch,
  }).chatModel('bench-planner');
  const out = openSync(path.join(datasetDir, `floor-${level}.jsonl`), 'w');
  const append = (id, text, usage) => writeSync(out, `${JSON.stringify({ id, text, usage })}\n`);
  const text = 'x'.repeat(promptChars);
  const fixed = (async function* () {
    for (let index = 0; index < cases; index += 1) yield index;
  })();
  const images = new Map();
  const records = (async function* () {
    for (const split of Object.keys(SPLIT_SIZES)) {
      for await (const { text: line } of readLines(path.join(datasetDir, 'data', `${split}.jsonl`)))
        yield JSON.parse(line);
    }
  })();
  const apbCases = (async function* () {
    for await (const item of readCases(datasetDir, { trusted: { invalidLines: new Set() } }))
      if (item.kind === 'case') yield item.case;
  })();
  const perLevel = {
    http: [
      fixed,
      async (index) => {
        const body = JSON.stringify({
          model: 'bench-planner',
          messages: [{ role: 'user', content: text }],
        });
        const reply = await (
          await nodeFetch(`${baseUrl}/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          })
        ).json();
        append(index, reply.choices[0].message.content, reply.usage);
      },
    ],
    sdk: [
      fixed,
      async (index) => {
        const result = await model.doGenerate({
          prompt: [{ role: 'user', content: [{ type: 'text', text }] }],
        });
        append(index, result.content[0]?.text, result.usage);
      },
    ],
    'sdk-dataset': [
      records,
      async (record) => {
        const result = await model.doGenerate({ prompt: rawPrompt(record, datasetDir, images) });
        append(record.id, result.content[0]?.text, result.usage);
      },
    ],
    'sdk-apb-case': [
      apbCases,
      async (item) => {
        const prompt = plannerPromptOf(item, DEFAULT_PROMPT_OPTIONS);
        const result = await model.doGenerate({
          prompt: await toSdkPrompt(prompt.messages, 'floor'),
        });
        append(item.id, result.content[0]?.text, result.usage);
      },
    ],
  };
  const [items, perCase] = perLevel[level];
  globalThis.gc?.();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const calls = await pool(items, perCase);
  const cpu = process.cpuUsage(cpuBefore);
  closeSync(out);
  return {
    level,
    calls,
    wall_s: Number(((performance.now() - started) / 1000).toFixed(2)),
    cpu_ms_per_call: Number(((cpu.user + cpu.system) / 1000 / calls).toFixed(3)),
  };
}

/** The mean characters of apb's planner prompts over the dataset (images as their base64 length), for the fixed-prompt levels. */
async function meanPromptChars(datasetDir) {
  const { readCases } = await import(dist('dataset/read-cases.js'));
  const { plannerPromptOf } = await import(dist('pipeline/evaluate-case.js'));
  const { toSdkPrompt } = await import(dist('providers/sdk-adapter.js'));
  const { DEFAULT_PROMPT_OPTIONS } = await import(dist('settings/prompt.js'));
  let chars = 0;
  let count = 0;
  for await (const item of readCases(datasetDir)) {
    if (item.kind !== 'case') continue;
    const prompt = await toSdkPrompt(
      plannerPromptOf(item.case, DEFAULT_PROMPT_OPTIONS).messages,
      'floor',
    );
    for (const message of prompt)
      for (const part of Array.isArray(message.content)
        ? message.content
        : [{ text: message.content }])
        chars += (part.text ?? part.data ?? '').length;
    count += 1;
  }
  return Math.round(chars / count);
}

const self = fileURLToPath(import.meta.url);
if (process.argv[2] === '--level') {
  process.send(await runLevel(JSON.parse(process.argv[3])));
  process.exit(0);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!existsSync(fileURLToPath(dist('pipeline/run.js')))) {
    console.error('stack-floor: dist/ is missing; run `npm run build` first');
    process.exit(1);
  }
  const repeats = Number(process.argv[process.argv.indexOf('--repeat') + 1]) || 1;
  const work = mkdtempSync(path.join(os.tmpdir(), 'apb-bench-floor-'));
  const server = await startServer(work);
  try {
    const promptChars = await meanPromptChars(work);
    console.log(
      `stack floor: ${server.cases} calls per level, concurrency ${CONCURRENCY}, 0 ms latency; mean prompt ${promptChars} characters`,
    );
    for (let round = 0; round < repeats; round += 1) {
      for (const level of LEVELS) {
        server.child.send({ reset: true, configure: { latencyMs: 0 } });
        const config = {
          level,
          baseUrl: server.baseUrl,
          datasetDir: work,
          cases: server.cases,
          promptChars,
        };
        const figures = await new Promise((resolve, reject) => {
          const child = fork(self, ['--level', JSON.stringify(config)], {
            execArgv: ['--expose-gc'],
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          });
          child.once('message', resolve);
          child.once(
            'exit',
            (code) => code !== 0 && reject(new Error(`level ${level} exited with ${code}`)),
          );
        });
        console.log(
          `  ${level.padEnd(13)} ${figures.calls} calls  ${String(figures.wall_s).padStart(5)} s  CPU ${figures.cpu_ms_per_call.toFixed(3)} ms/call`,
        );
      }
    }
  } finally {
    server.child.send({ close: true });
    rmSync(work, { recursive: true, force: true });
  }
}
