/** The `Provider` contract: the only shape the core knows of a model endpoint. */
import type { PromptMessage, PromptPart } from '../settings/prompt.js';
import { parseUntrustedJson } from '../json-depth.js';

/** Token counts as reported by the endpoint (never estimated here). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** Sampling and request options that change the output; all of them enter the cache key. */
export interface SamplingParams {
  temperature?: number;
  maxOutputTokens?: number;
  seed?: number;
  /** Reasoning effort for models that take one; `data/model-defaults.json` maps it to each vendor's option. */
  reasoningEffort?: ReasoningEffort;
  /** Thinking-token budget; 0 turns thinking off where the model allows it (mapped like `reasoningEffort`). */
  thinkingBudget?: number;
  /** Vendor options passed through as data (thinking budgets, reasoning effort…), keyed by vendor. */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** Nucleus sampling, stop sequences and penalties: a client's own choices, forwarded by `apb serve`. */
  topP?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** A JSON reply, shaped by `schema` when one is given (structured output); stronger than `json`. */
  responseFormat?: ResponseFormat;
}

/** Every reasoning-effort value a vendor takes (OpenAI's `none` … `xhigh`; the rules map them elsewhere). */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
/** One reasoning-effort value. */
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** A requested JSON reply: any JSON object, or one matching a schema (with its name and description). */
export interface ResponseFormat {
  type: 'json';
  schema?: Record<string, unknown>;
  name?: string;
  description?: string;
  /** Whether the endpoint must hold to the schema exactly (OpenAI's `strict`). */
  strict?: boolean;
}

/** A tool the model may call (function calling): its name, what it does, and a JSON schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Strict schema adherence, where the endpoint offers it (OpenAI's `strict`); absent: the endpoint's default. */
  strict?: boolean;
}

/** One tool call the model made; `argumentsError` says why its arguments could not be read as a JSON object. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  argumentsError?: string;
  /** The arguments exactly as the model wrote them, kept when they could not be read (so a proxy can pass them on). */
  rawArguments?: string;
  /** Vendor data tied to the call that must come back with it (Gemini 3's thought signature). */
  vendorMetadata?: Record<string, Record<string, unknown>>;
}

/** What a tool call returned, sent back to the model; `isError` marks an error text (tau2's `Error: …`). */
export interface ToolResult {
  callId: string;
  name: string;
  content: string;
  isError: boolean;
}

/** A model turn that called tools (with any text it said beside them). */
export interface AssistantToolCallMessage {
  role: 'assistant';
  parts: PromptPart[];
  toolCalls: ModelToolCall[];
  /** The reasoning the model gave with these calls, sent back so the vendor can continue from it. */
  reasoning?: ReasoningPart[];
}

/** The results of the previous turn's tool calls, one per call. */
export interface ToolResultMessage {
  role: 'tool';
  results: ToolResult[];
}

/** A message of a request: a prompt message, or (in tool-calling conversations) a tool-call turn or its results. */
export type ChatMessage = PromptMessage | AssistantToolCallMessage | ToolResultMessage;

/** Who is calling, for usage accounting; open-ended (planner, judge, critic, agent, user simulator, …). */
export type CallRole = 'planner' | 'judge' | 'critic' | 'agent' | 'user' | (string & {});

/** How the model may use the tools: as it likes, must call one, must not, or must call the named one. */
export type ToolChoice = 'auto' | 'required' | 'none' | { tool: string };

export interface ProviderRequest {
  messages: ChatMessage[];
  promptVersion: string;
  /** Ask for a JSON object reply where the endpoint supports it (with a fallback where it does not). */
  json: boolean;
  sampling: SamplingParams;
  /** Repeat index: distinct repeats are distinct cache entries. */
  repeat: number;
  /** Who is calling, for usage accounting: planner, judge, critic, agent, user (simulator), … */
  role: CallRole;
  /** Tools the model may call; absent for plain text requests. */
  tools?: ToolDefinition[];
  /** Default `auto` when tools are given. */
  toolChoice?: ToolChoice;
  /**
   * What a planner or agent as code (`providers/code/`) is told besides the messages: the case's id
   * and split, or the task and turn. Model endpoints never see it; it enters the cache key only there.
   */
  subject?: RequestSubject;
}

/** The case (id and split) or exec task and turn a request belongs to; never a reference field. */
export interface RequestSubject {
  id: string;
  split?: string;
  turn?: number;
}

export type FinishReason =
  'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'unknown';

export interface ProviderResult {
  text: string;
  /** Tool calls the model made, in order (absent or empty when it only answered in text). */
  toolCalls?: ModelToolCall[];
  usage: Usage | null;
  latencyMs: number;
  finishReason: FinishReason;
  /** HTTP attempts made (1 when the first try succeeded; 0 for a cache hit). */
  attempts: number;
  /** True when the reply came from the response cache (excluded from latency and cost). */
  cached: boolean;
  /** Set when the reply came from a provider batch (`--batch`): its id; the call is billed at batch prices. */
  batch?: { id: string };
  /** Options the endpoint or SDK dropped or changed (e.g. an unsupported temperature), for the run record. */
  warnings?: string[];
  /** What the vendor said beside the reply (logprobs, …), keyed by vendor, as the SDK gave it. */
  vendorMetadata?: Record<string, Record<string, unknown>>;
  /** The model's reasoning, in order, with what the vendor needs to accept it again on a later turn. */
  reasoning?: ReasoningPart[];
  /** What the call cost as the endpoint itself reported it (a planner as code's `cost_usd`). */
  costUsd?: number;
  /**
   * Set when the reported usage was impossible (negative, non-finite) or implausible: the budget
   * counts apb's own estimate instead.
   */
  usageImplausible?: boolean;
}

/**
 * A reasoning block and its vendor data (Claude's signature, Gemini's thought signature),
 * replayable on a later turn.
 */
export interface ReasoningPart {
  text: string;
  vendorMetadata?: Record<string, Record<string, unknown>>;
}

/**
 * Tool-call arguments as JSON text (from a model or a client: untrusted) → an object, or an empty
 * one and the reason; nested past `maxDepth` (the JSON cap) they are not read.
 */
export function readToolArguments(
  input: string,
  maxDepth?: number,
): Pick<ModelToolCall, 'arguments' | 'argumentsError' | 'rawArguments'> {
  if (input.trim() === '') return { arguments: {} };
  try {
    const value: unknown = parseUntrustedJson(input, maxDepth);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { arguments: value as Record<string, unknown> };
    return {
      arguments: {},
      argumentsError: `arguments are not a JSON object: ${input.slice(0, 200)}`,
      rawArguments: input,
    };
  } catch {
    return {
      arguments: {},
      argumentsError: `arguments are not valid JSON (or nest too deep): ${input.slice(0, 200)}`,
      rawArguments: input,
    };
  }
}

/** True for a message that carries prompt parts (every kind but tool results). */
export function hasParts(
  message: ChatMessage,
): message is PromptMessage | AssistantToolCallMessage {
  return message.role !== 'tool';
}

/** The prompt parts of a message (none for tool results). */
export function partsOf(message: ChatMessage): PromptPart[] {
  return hasParts(message) ? message.parts : [];
}

/** A model endpoint. Failures throw `ProviderError`. */
export interface Provider {
  /** `vendor:model` as the user wrote it. */
  readonly id: string;
  generate(request: ProviderRequest, signal?: AbortSignal): Promise<ProviderResult>;
}
