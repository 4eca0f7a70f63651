/** `FakeProvider`: an in-process Provider that plays a script of replies and errors, for tests of the core. */
import { ProviderError } from '../errors.js';
import type {
  FinishReason,
  ModelToolCall,
  Provider,
  ProviderRequest,
  ProviderResult,
  Usage,
} from './provider.js';
import { abortableSleep } from './retry.js';

/** One scripted reply. */
export interface FakeReplyStep {
  text: string;
  toolCalls?: ModelToolCall[];
  usage?: Usage | null;
  finishReason?: FinishReason;
  latencyMs?: number;
}

/** One scripted step: a reply, an error to throw, or a function of the request giving either. */
export type FakeStep =
  | FakeReplyStep
  | { error: ProviderError }
  | ((request: ProviderRequest, index: number) => FakeReplyStep | { error: ProviderError });

/** How a FakeProvider answers. */
export interface FakeProviderOptions {
  /** Default `fake:model`. */
  id?: string;
  /** Steps consumed in order, one per call. */
  script?: FakeStep[];
  /** Used once the script is exhausted; without it an exhausted script throws. */
  fallback?: FakeStep;
  /** Real delay before answering (abortable), to exercise concurrency and timeouts. */
  delayMs?: number;
}

/** A scripted, named-as-fake Provider that records every request it receives. */
export class FakeProvider implements Provider {
  readonly id: string;
  /** Requests received, in order (the signal is not kept). */
  readonly requests: ProviderRequest[] = [];
  private readonly script: FakeStep[];

  constructor(private readonly options: FakeProviderOptions = {}) {
    this.id = options.id ?? 'fake:model';
    this.script = [...(options.script ?? [])];
  }

  /** Appends steps to the script. */
  push(...steps: FakeStep[]): void {
    this.script.push(...steps);
  }

  async generate(request: ProviderRequest, signal?: AbortSignal): Promise<ProviderResult> {
    const index = this.requests.length;
    this.requests.push(request);
    if (this.options.delayMs) await delay(this.options.delayMs, signal, this.id);
    if (signal?.aborted)
      throw new ProviderError({
        provider: this.id,
        kind: 'aborted',
        retryable: false,
        message: `${this.id}: request aborted`,
      });
    const step = this.script.shift() ?? this.options.fallback;
    if (!step) throw new Error(`FakeProvider ${this.id}: script exhausted at request ${index}`);
    const outcome = typeof step === 'function' ? step(request, index) : step;
    if ('error' in outcome) throw outcome.error;
    return {
      text: outcome.text,
      ...(outcome.toolCalls?.length ? { toolCalls: outcome.toolCalls } : {}),
      usage: outcome.usage === undefined ? { inputTokens: 10, outputTokens: 5 } : outcome.usage,
      latencyMs: outcome.latencyMs ?? 1,
      finishReason: outcome.finishReason ?? (outcome.toolCalls?.length ? 'tool-calls' : 'stop'),
      attempts: 1,
      cached: false,
    };
  }
}

/** The scripted latency; an abort ends it as the vendor adapters' aborts end, with an `aborted` ProviderError. */
async function delay(ms: number, signal: AbortSignal | undefined, provider: string): Promise<void> {
  try {
    await abortableSleep(ms, signal);
  } catch {
    throw new ProviderError({
      provider,
      kind: 'aborted',
      retryable: false,
      message: `${provider}: request aborted`,
    });
  }
}
