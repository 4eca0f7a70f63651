/**
 * Tool-call arguments that are not a JSON object (a client of `apb serve` replaying what a model
 * wrote) must reach the upstream as they were written. The AI SDK serialises a tool call's input
 * itself and turns such text into `{}` or a quoted string, so the call carries a marked wrapper
 * instead, and the adapter's `fetch` puts the text back into the request body: as the `arguments`
 * string where the wire format has one (OpenAI chat, Responses, OpenAI-compatible), as `{}` where
 * the input must be an object (Anthropic, Gemini), which cannot carry it.
 */
import type { ModelToolCall } from './provider.js';

const MARKER = '__apb_raw_tool_arguments__';

/** What the SDK is given as a call's input: the object, or the marked wrapper of unreadable text. */
export function toolCallInput(call: ModelToolCall): unknown {
  return call.rawArguments !== undefined ? { [MARKER]: call.rawArguments } : call.arguments;
}

const isWrapper = (value: unknown): value is Record<typeof MARKER, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length === 1 &&
  typeof (value as Record<string, unknown>)[MARKER] === 'string';

/** The body with every wrapper replaced: serialised ones by their text, object ones by `{}`. */
function restore(value: unknown): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(`{"${MARKER}"`)) return value;
    try {
      const parsed: unknown = JSON.parse(value);
      return isWrapper(parsed) ? parsed[MARKER] : value;
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map(restore);
  if (typeof value !== 'object' || value === null) return value;
  if (isWrapper(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, restore(inner)]));
}

/** Wraps an adapter's fetch so marked arguments leave as written; other bodies pass untouched. */
export function withRawArguments(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const body = init?.body;
    if (typeof body !== 'string' || !body.includes(MARKER)) return fetch(input, init);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return fetch(input, init);
    }
    return fetch(input, { ...init, body: JSON.stringify(restore(parsed)) });
  };
}
