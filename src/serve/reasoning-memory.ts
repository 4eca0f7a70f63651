/**
 * Reasoning state across stateless turns. A client sends back the history as its API shows it, which has no
 * place for Claude's signed thinking blocks or Gemini 3's thought signatures, yet the vendor needs them back with
 * the tool calls they led to. apb serve keeps them itself, keyed by the ids of those tool calls (unique per
 * reply), and puts them back in when a later request of the conversation replays the calls.
 */
import type {
  ChatMessage,
  ModelToolCall,
  ProviderResult,
  ReasoningPart,
} from '../providers/provider.js';

interface Remembered {
  reasoning: ReasoningPart[] | undefined;
  calls: Map<string, ModelToolCall['vendorMetadata']>;
}

/** How many model turns' reasoning is kept before the oldest is forgotten. */
export const REASONING_CAPACITY = 10_000;

/** The reasoning of recent tool-calling replies, by tool-call id. */
export class ReasoningMemory {
  private readonly turns = new Map<string, Remembered>();

  constructor(private readonly capacity = REASONING_CAPACITY) {}

  /** Keeps a reply's reasoning and its calls' vendor data, when it has any. */
  remember(result: ProviderResult): void {
    const calls = result.toolCalls ?? [];
    if (calls.length === 0) return;
    const withMetadata = calls.filter((call) => call.vendorMetadata);
    if (!result.reasoning?.length && withMetadata.length === 0) return;
    const entry: Remembered = {
      reasoning: result.reasoning,
      calls: new Map(withMetadata.map((call) => [call.id, call.vendorMetadata])),
    };
    this.turns.set(calls[0]!.id, entry);
    if (this.turns.size > this.capacity)
      this.turns.delete(this.turns.keys().next().value as string);
  }

  /** The messages with the remembered reasoning put back into the tool-call turns it came with. */
  restore(messages: ChatMessage[]): ChatMessage[] {
    if (this.turns.size === 0) return messages;
    return messages.map((message) => {
      if (message.role !== 'assistant' || !('toolCalls' in message)) return message;
      const entry = this.turns.get(message.toolCalls[0]?.id ?? '');
      if (!entry) return message;
      return {
        ...message,
        ...(entry.reasoning ? { reasoning: entry.reasoning } : {}),
        toolCalls: message.toolCalls.map((call) => {
          const vendorMetadata = entry.calls.get(call.id);
          return vendorMetadata ? { ...call, vendorMetadata } : call;
        }),
      };
    });
  }
}
