// The engine benchmark's model endpoint, run as its own process (`node --import tsx`) so that the
// measured process is the harness alone. It serves test/fake-server (the loopback fake of the test
// suite) and answers every planner prompt of the benchmark dataset with that case's reference
// answer. It writes that dataset first, so the measured process never holds its garbage.
// Control over IPC: {configure: {latencyMs}}, {reset: true}, {stats: true}, {close: true}.
import { createHash } from 'node:crypto';
import { startFakeServer } from '../test/fake-server/index.ts';
import { writeBenchDataset } from './engine.mjs';

const [datasetDir] = process.argv.slice(2);
const dataset = writeBenchDataset(datasetDir);
const dist = (file) => new URL(`../dist/${file}`, import.meta.url).href;
const { readAllCases } = await import(dist('dataset/read-cases.js'));
const { plannerPromptOf } = await import(dist('pipeline/evaluate-case.js'));
const { BASELINES } = await import(dist('baselines/index.js'));
const { DEFAULT_PROMPT_OPTIONS } = await import(dist('settings/prompt.js'));

// Prompts are matched whitespace-insensitively, by a digest: the server keeps 4,209 short keys
// rather than the prompts themselves (or the cases), so its own garbage collection stays small.
const promptKey = (text) => createHash('sha1').update(text.replace(/\s+/g, '')).digest('base64');
async function loadAnswers() {
  const answers = new Map();
  const { cases } = await readAllCases(datasetDir);
  for (const item of cases) {
    const prompt = plannerPromptOf(item, DEFAULT_PROMPT_OPTIONS);
    const text = prompt.messages
      .map((message) =>
        message.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      )
      .join('');
    answers.set(promptKey(text), BASELINES.oracle.answer(item));
  }
  return { answers, cases: cases.length };
}
const { answers, cases } = await loadAnswers();

// Judge requests (model bench-judge) get a readable verdict in the shape their rubric asks for.
const VERDICTS = {
  behavior: JSON.stringify({
    reasoning: 'The first call uses the substitute tool.',
    behavior: 'replace',
  }),
  refused: JSON.stringify({ reasoning: 'The answer declines and says why.', refused: true }),
  graded: JSON.stringify({
    reasoning: 'Every step is supported.',
    errors: { E1: false, E2: false, E3: false, E4: false, E5: false, E6: false },
    is_correct: true,
    grade: 1,
  }),
};
function verdictFor(text) {
  if (text.includes('"behavior": "replace"}')) return VERDICTS.behavior;
  if (text.includes('"refused": true}')) return VERDICTS.refused;
  return VERDICTS.graded;
}

let unmatched = 0;
let firstAt = null;
let lastAt = null;
const server = await startFakeServer({
  retainRequests: false,
  respond(request) {
    firstAt ??= Date.now();
    lastAt = Date.now();
    if (request.parsed?.model === 'bench-judge')
      return { text: verdictFor(request.parsed.text ?? '') };
    const answer = answers.get(promptKey(request.parsed?.text ?? ''));
    if (answer === undefined) unmatched += 1;
    return { text: answer ?? 'unrecognised request' };
  },
});

process.on('message', async (message) => {
  if (message.reset) {
    server.reset();
    unmatched = 0;
    firstAt = lastAt = null;
  }
  if (message.configure) server.configure(message.configure);
  if (message.stats)
    process.send({
      stats: {
        requests: server.count(),
        maxInFlight: server.maxInFlight,
        unmatched,
        firstAt,
        lastAt,
        cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
      },
    });
  if (message.close) {
    await server.close();
    process.exit(0);
  }
});
process.send({ ready: { baseUrl: server.baseUrl('openai'), cases, bytes: dataset.bytes } });
