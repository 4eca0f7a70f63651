// The scale benchmark's model endpoint, in its own process (`node --import tsx`): the test suite's
// loopback fake (test/fake-server/), answering planner prompts with one plausible plan and judge
// prompts (model `scale-judge`) with a verdict in the shape their rubric asks for. Optionally it
// enforces a request rate the way providers do: a token bucket of `rpm` per minute holding one
// second's worth, a request without a token answered 429 with `retry-after-ms` (the wait until the
// next token). Control over IPC: {configure: {latencyMs, rpm}}, {reset: true}, {stats: true}, {close: true}.
import { replies, startFakeServer } from '../test/fake-server/index.ts';

const PLAN = JSON.stringify({
  plan: '1. Look up the user and the reservation. 2. Check the policy. 3. Make the change the user asked for.',
  tool_chain: [
    { name: 'get_user_details', arguments: { user_id: 'user_1' } },
    { name: 'get_reservation_details', arguments: { reservation_id: 'R1' } },
  ],
});
const VERDICTS = {
  behavior: JSON.stringify({
    reasoning: 'The first call uses the substitute tool.',
    behavior: 'replace',
  }),
  refused: JSON.stringify({ reasoning: 'The answer does not decline.', refused: false }),
  graded: JSON.stringify({
    reasoning: 'Two steps are missing.',
    errors: { E1: false, E2: false, E3: true, E4: false, E5: false, E6: false },
    is_correct: false,
    grade: 0.4,
  }),
};
const verdictFor = (text) =>
  text.includes('"behavior": "replace"}')
    ? VERDICTS.behavior
    : text.includes('"refused": true}')
      ? VERDICTS.refused
      : VERDICTS.graded;

let rpm = null;
let tokens = 0;
let refilledAt = 0;
const stats = { ok: 0, limited: 0, firstOkAt: null, lastOkAt: null };

/** Takes a token if there is one; otherwise the ms until the next. */
function take() {
  const now = Date.now();
  const perMs = rpm / 60_000;
  tokens = Math.min(rpm / 60, tokens + (now - refilledAt) * perMs);
  refilledAt = now;
  if (tokens >= 1) {
    tokens -= 1;
    return 0;
  }
  return Math.ceil((1 - tokens) / perMs);
}

const server = await startFakeServer({
  retainRequests: false,
  respond(request) {
    if (rpm) {
      const wait = take();
      if (wait > 0) {
        stats.limited += 1;
        return { ...replies.rateLimited({ retryAfterMs: wait }), delayMs: 0 };
      }
    }
    stats.ok += 1;
    stats.firstOkAt ??= Date.now();
    stats.lastOkAt = Date.now();
    return {
      text: request.parsed?.model === 'scale-judge' ? verdictFor(request.parsed.text ?? '') : PLAN,
    };
  },
});

process.on('message', async (message) => {
  if (message.reset) {
    server.reset();
    Object.assign(stats, { ok: 0, limited: 0, firstOkAt: null, lastOkAt: null });
  }
  if (message.configure) {
    server.configure({ latencyMs: message.configure.latencyMs ?? 0 });
    rpm = message.configure.rpm ?? null;
    tokens = rpm ? rpm / 60 : 0;
    refilledAt = Date.now();
  }
  if (message.stats)
    process.send({
      stats: { ...stats, requests: server.count(), maxInFlight: server.maxInFlight },
    });
  if (message.close) {
    await server.close();
    process.exit(0);
  }
});
process.send({ ready: { baseUrl: server.baseUrl('openai') } });
