/**
 * Recognising a conversation across stateless chat-completions requests, with no client change: every request
 * resends the history, so a conversation is named by its opening — the system text before the first user message,
 * the tools offered, and that first user message. Its plan is made once (one promise shared by concurrent
 * requests) and kept, failures included, so a conversation never switches plans half-way.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';
import type { PlanningContext, PlanRecord } from '../execution/plans.js';
import { partsOf, type ChatMessage, type ToolDefinition } from '../providers/provider.js';

/** A conversation's opening: its key and what the planner is given. */
export interface Opening {
  key: string;
  context: PlanningContext;
}

const textOf = (message: ChatMessage) =>
  partsOf(message)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('');

/** The opening of a request's conversation, or null while it has no user message yet (nothing to plan from). */
export function openingOf(
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[],
): Opening | null {
  const first = messages.findIndex((message) => message.role === 'user');
  if (first < 0) return null;
  const system = messages
    .slice(0, first)
    .filter((message) => message.role === 'system')
    .map(textOf)
    .join('\n\n');
  const request = textOf(messages[first]!);
  const key = createHash('sha256')
    .update(canonicalJson({ system, tools, request }))
    .digest('hex')
    .slice(0, 24);
  return { key, context: { policy: system === '' ? null : system, request, tools } };
}

/** How many conversations' plans are kept before the oldest is forgotten. */
export const DEFAULT_CONVERSATION_CAPACITY = 10_000;

/** The plans of the conversations seen so far, made on first sight by `makePlan`. */
export class ConversationPlans {
  private readonly plans = new Map<string, Promise<PlanRecord>>();
  /** Plans asked of `makePlan` (one per new conversation). */
  made = 0;

  constructor(
    private readonly makePlan: (context: PlanningContext) => Promise<PlanRecord>,
    private readonly capacity = DEFAULT_CONVERSATION_CAPACITY,
  ) {}

  /** True when the conversation has been seen (its plan is made or being made). */
  has(key: string): boolean {
    return this.plans.has(key);
  }

  /** The conversation's plan: made now for a new conversation, else the one made before. */
  planFor(opening: Opening): Promise<PlanRecord> {
    const known = this.plans.get(opening.key);
    if (known) {
      // Refresh its place: the least recently used conversation is the one forgotten.
      this.plans.delete(opening.key);
      this.plans.set(opening.key, known);
      return known;
    }
    this.made += 1;
    const plan = this.makePlan(opening.context);
    this.plans.set(opening.key, plan);
    // A fatal failure (key rejected, shutdown) is not a plan: forget it so a later request may try again.
    plan.catch(() => this.plans.delete(opening.key));
    if (this.plans.size > this.capacity)
      this.plans.delete(this.plans.keys().next().value as string);
    return plan;
  }

  /** Conversations currently remembered. */
  get size(): number {
    return this.plans.size;
  }
}
