/**
 * One request through apb serve, whatever API it came in: its role decides whether its conversation is planned
 * (a user simulator on the same endpoint is forwarded, not planned), the plan goes into its system prompt, the
 * reasoning of earlier turns is put back, and it goes to the tested model once, with exactly the client's
 * options (nothing injected, nothing retried: the client retries as it sees fit). Failures come back as
 * `ServeFailure`s with the upstream's meaning.
 */
import { ProviderError } from '../errors.js';
import { planBlock, withPlan, type PlanningContext, type PlanRecord } from '../execution/plans.js';
import { BudgetExceededError } from '../pipeline/budget.js';
import {
  partsOf,
  type ChatMessage,
  type Provider,
  type ProviderResult,
} from '../providers/provider.js';
import { BadRequestError, samplingOf, vendorOf, type NameMap } from './client-options.js';
import { ConversationPlans, openingOf } from './conversations.js';
import { upstreamFailure, type ServeFailure } from './failures.js';
import type { ServeRequest } from './openai-request.js';
import { ReasoningMemory } from './reasoning-memory.js';

/** The three execution modes of paper §5.1. */
export type ServeMode = 'direct' | 'plan-first' | 'refine';

/** What the forwarder is made of. */
export interface ForwarderOptions {
  mode: ServeMode;
  forward: Provider;
  makePlan?: (context: PlanningContext, signal: AbortSignal) => Promise<PlanRecord>;
  onPlan?: (entry: { conversation: string; context: PlanningContext; plan: PlanRecord }) => void;
  /** Roles whose conversations are planned (default: `agent` only). */
  planRoles?: readonly string[];
  /** Asked before a new conversation's plan is paid for; a failure returned refuses the request (e.g. a full disk). */
  beforePlan?: () => ServeFailure | null;
}

/** A reply and the headers that describe what apb did to the request. */
export type Forwarded =
  | { ok: true; result: ProviderResult; headers: Record<string, string> }
  | { ok: false; failure: ServeFailure };

/** Counts kept by the forwarder. */
export interface ForwardCounts {
  failed_requests: number;
  refused_budget: number;
}

/** Forwards requests: `forward(request, role, signal)`. */
export function createForwarder(options: ForwarderOptions, shutdown: AbortSignal) {
  const plans = new ConversationPlans((context) => options.makePlan!(context, shutdown));
  const memory = new ReasoningMemory();
  const counts: ForwardCounts = { failed_requests: 0, refused_budget: 0 };
  const planRoles = new Set(options.planRoles ?? ['agent']);
  const vendor = vendorOf(options.forward.id);

  async function forward(
    request: ServeRequest,
    role: string,
    signal: AbortSignal,
    names: NameMap = {},
  ): Promise<Forwarded> {
    let sampling: ReturnType<typeof samplingOf>;
    let planned: Awaited<ReturnType<typeof withConversationPlan>>;
    try {
      sampling = samplingOf(vendor, request.options, names);
      planned = planRoles.has(role)
        ? await withConversationPlan(request, options, plans)
        : { messages: request.messages, conversation: null, planState: 'forwarded' };
    } catch (error) {
      return failed(error, counts);
    }
    if ('failure' in planned) return { ok: false, failure: planned.failure };
    let result: ProviderResult;
    try {
      result = await options.forward.generate(
        {
          messages: memory.restore(planned.messages),
          promptVersion: `serve-${options.mode}`,
          json: false,
          sampling,
          repeat: 0,
          role,
          ...(request.tools.length > 0
            ? { tools: request.tools, toolChoice: request.toolChoice }
            : {}),
        },
        AbortSignal.any([signal, shutdown]),
      );
    } catch (error) {
      return failed(error, counts);
    }
    memory.remember(result);
    const broken = (result.toolCalls ?? []).find((call) => call.argumentsError);
    const headers: Record<string, string> = {
      'x-apb-mode': options.mode,
      'x-apb-plan': planned.planState,
      'x-apb-role': role,
      ...(planned.conversation ? { 'x-apb-conversation': planned.conversation } : {}),
      ...(broken
        ? { 'x-apb-tool-arguments-error': `${broken.id}: ${headerSafe(broken.argumentsError!)}` }
        : {}),
    };
    return { ok: true, result, headers };
  }

  return { forward, counts, plans };
}

/** A failure as the client is told it; budget refusals and upstream failures are counted. */
function failed(error: unknown, counts: ForwardCounts): Forwarded {
  if (error instanceof BudgetExceededError) {
    counts.refused_budget += 1;
    return {
      ok: false,
      failure: {
        status: 429,
        kind: 'insufficient_quota',
        message: `apb serve: ${error.message}`,
      },
    };
  }
  if (error instanceof BadRequestError)
    return {
      ok: false,
      failure: { status: 400, kind: 'invalid_request', message: error.message },
    };
  if (!(error instanceof ProviderError)) throw error;
  counts.failed_requests += 1;
  return { ok: false, failure: upstreamFailure(error) };
}

/** The request's messages with its conversation's plan put in, and what happened to the plan. */
async function withConversationPlan(
  request: ServeRequest,
  options: ForwarderOptions,
  plans: ConversationPlans,
): Promise<
  | {
      messages: ChatMessage[];
      conversation: string | null;
      planState: 'none' | 'injected' | 'unavailable' | 'forwarded';
    }
  | { failure: ServeFailure }
> {
  const opening = openingOf(request.messages, request.tools);
  if (options.mode === 'direct' || !opening)
    return { messages: request.messages, conversation: opening?.key ?? null, planState: 'none' };
  const isNew = !plans.has(opening.key);
  if (isNew) {
    const refused = options.beforePlan?.() ?? null;
    if (refused) return { failure: refused };
  }
  const plan = await plans.planFor(opening);
  if (isNew) options.onPlan?.({ conversation: opening.key, context: opening.context, plan });
  const block = planBlock(plan);
  if (!block)
    return { messages: request.messages, conversation: opening.key, planState: 'unavailable' };
  return {
    messages: injectPlan(request.messages, block),
    conversation: opening.key,
    planState: 'injected',
  };
}

/** A header value: one line of printable ASCII. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);

/** The messages with the plan appended to the first system message (or put in a system message of its own). */
export function injectPlan(messages: readonly ChatMessage[], block: string): ChatMessage[] {
  const first = messages[0];
  if (first?.role === 'system') {
    const text = partsOf(first)
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('');
    return [
      { role: 'system', parts: [{ type: 'text', text: withPlan(text, block) }] },
      ...messages.slice(1),
    ];
  }
  return [{ role: 'system', parts: [{ type: 'text', text: withPlan('', block) }] }, ...messages];
}
