/**
 * Child process for the concurrent-writers test: writes COUNT replies (repeats START..) into the
 * cache FILE, then reads them back.
 */
import { ResponseCache, withCache } from '../../src/providers/cache.js';
import { FakeProvider } from '../../src/providers/fake-provider.js';

const [file = '', start = '0', count = '0'] = process.argv.slice(2);
const cache = ResponseCache.open(file);
const scope = { provider: 'openai', model: 'gpt-4o', baseUrl: null };
const provider = withCache(
  new FakeProvider({ fallback: (request) => ({ text: `reply ${request.repeat}` }) }),
  { cache, scope, enabled: true },
);
const request = (repeat: number) => ({
  messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: 'same prompt' }] }],
  promptVersion: 'v',
  json: false,
  sampling: {},
  repeat,
  role: 'planner' as const,
});
for (let index = 0; index < Number(count); index++) {
  // Every writer also writes the shared repeat 0, so the same key is written from several processes.
  await provider.generate(request(index === 0 ? 0 : Number(start) + index));
}
let hits = 0;
for (let index = 1; index < Number(count); index++)
  if ((await provider.generate(request(Number(start) + index))).cached) hits++;
cache.close();
process.stdout.write(JSON.stringify({ hits }));
