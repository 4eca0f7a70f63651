/**
 * PII removal for trajectories imported from real traffic (paper B.2: "PII removal"): e-mail
 * addresses, phone numbers, payment-card-like digit runs and IPv4 addresses are replaced by typed
 * placeholders (`<EMAIL_1>`, `<PHONE_2>`, …). The same value gets the same placeholder everywhere in
 * a record — query, system prompt, messages, tool-call arguments and tool returns — so the
 * trajectory stays coherent (a looked-up e-mail is still the one the query gave). Deterministic:
 * numbering follows first appearance.
 */
import type { SourceMessage, SourceRecord } from './source-record.js';

/** What is replaced, in the order patterns are tried (cards before phones: a card is a longer digit run). */
const PATTERNS: Array<[kind: string, pattern: RegExp]> = [
  ['EMAIL', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g],
  ['IP', /\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b/g],
  ['CARD', /\b(?:\d[ -]?){12,18}\d\b/g],
  ['PHONE', /(?<![\w-])\+?\(?\d{1,4}\)?(?:[ .-]?\(?\d{2,4}\)?){2,4}(?![\w-])/g],
];

/** Source names of real-traffic data, whose imports are scrubbed by default. */
export const REAL_TRAFFIC_SOURCES = ['real-traffic', 'real_traffic', 'skywork'];

/** A scrubber holding one record's value → placeholder map. */
class Scrubber {
  private readonly seen = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  readonly found: Record<string, number> = {};

  text(value: string): string {
    let out = value;
    for (const [kind, pattern] of PATTERNS)
      out = out.replace(pattern, (match) => {
        // A phone needs 7+ digits; shorter runs are order numbers, dates or amounts.
        if (kind === 'PHONE' && match.replace(/\D/g, '').length < 7) return match;
        return this.placeholder(kind, match);
      });
    return out;
  }

  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, this.value(item)]),
      );
    return value;
  }

  private placeholder(kind: string, match: string): string {
    const key = `${kind}\u0000${match}`;
    const known = this.seen.get(key);
    if (known) return known;
    const count = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, count);
    this.found[kind] = (this.found[kind] ?? 0) + 1;
    const made = `<${kind}_${count}>`;
    this.seen.set(key, made);
    return made;
  }
}

/** The record with its PII replaced, and how many distinct values of each kind were replaced. */
export function removePii(record: SourceRecord): {
  record: SourceRecord;
  found: Record<string, number>;
} {
  const scrub = new Scrubber();
  const scrubbed: SourceRecord = {
    ...record,
    query: scrub.text(record.query),
    system_prompt: record.system_prompt === null ? null : scrub.text(record.system_prompt),
    messages: record.messages.map((message): SourceMessage => {
      // Only what a person wrote or a tool returned: ids, names and roles stay as they are.
      if (message.role === 'assistant')
        return {
          ...message,
          content: scrub.text(message.content),
          tool_calls: message.tool_calls.map((call) => ({
            ...call,
            arguments: scrub.value(call.arguments),
          })),
        };
      if (message.role === 'tool')
        return {
          ...message,
          content: message.content === null ? null : scrub.text(message.content),
        };
      return { ...message, content: scrub.text(message.content) };
    }),
  };
  return { record: scrubbed, found: scrub.found };
}
