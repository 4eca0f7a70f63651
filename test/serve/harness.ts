/**
 * `apb serve` in front of the loopback fake upstream, built as the CLI builds its forwarding stack (no retries,
 * no failure watch, no injected defaults), for the real-client tests.
 */
import { withoutDefaults } from '../../src/providers/model-options.js';
import { buildProviderStack } from '../../src/providers/registry.js';
import { startServe, type RunningServe, type ServeOptions } from '../../src/serve/server.js';
import type { FakeServer, RecordedRequest } from '../fake-server/index.js';

/** The upstreams the tests forward to: the fake's OpenAI and Anthropic wires. */
export type Upstream = 'openai:gpt-4o' | 'anthropic:claude-sonnet-4-5' | 'openai-compatible:qwen3';

/** Starts serve forwarding to `upstream` on the fake. */
export function serveOver(
  fake: FakeServer,
  upstream: Upstream = 'openai:gpt-4o',
  extra: Partial<ServeOptions> = {},
): Promise<RunningServe> {
  const wire = upstream.startsWith('anthropic') ? 'anthropic' : 'openai';
  const forward = buildProviderStack(upstream, {
    baseUrl: fake.baseUrl(wire),
    env: { OPENAI_API_KEY: 'sk-upstream', ANTHROPIC_API_KEY: 'sk-ant-upstream' },
    maxRetries: 0,
    failureWatch: false,
    modelDefaults: withoutDefaults(),
  });
  return startServe({ mode: 'direct', forward, port: 0, ...extra });
}

/** The JSON body the upstream received. */
export const bodyOf = (request: RecordedRequest | undefined): Record<string, unknown> =>
  request?.body ?? {};

/** A tool the clients offer. */
export const ORDER_TOOL = {
  name: 'get_order_details',
  description: 'Get the status and details of an order.',
  parameters: {
    type: 'object',
    properties: { order_id: { type: 'string' } },
    required: ['order_id'],
    additionalProperties: false,
  },
};

/** A structured-output schema the clients ask for. */
export const ANSWER_SCHEMA = {
  type: 'object',
  properties: { status: { type: 'string' }, refund: { type: 'number' } },
  required: ['status', 'refund'],
  additionalProperties: false,
};
