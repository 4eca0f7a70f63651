/**
 * Parsers of planner answers: untrusted text → `Attempt` or `AnswerParseFailure`. Lenient about
 * packaging (fences, prose, near-JSON, key spellings), strict about meaning: only an explicit
 * REJECT is a refusal, and an unreadable answer is a parse failure, never a refusal.
 */
import type { ToolCall } from '../dataset/case.js';
import { parseArguments } from '../dataset/normalize.js';
import { extractJson, type ExtractedJson } from './answer-json.js';
import { JsonTooDeepError } from '../json-depth.js';
import type { ParsedAnswer, PredictedStep, RefusalAttempt } from './attempt.js';

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const firstKey = (object: Loose, keys: string[]) =>
  keys.find((key) => object[key] !== undefined && object[key] !== null);

const REJECT_WORD = /^\s*(?:status\s*[:=]\s*)?["']?REJECT(?:ED)?\b["']?\s*[:.\-–—]?\s*/i;

/** An explicit refusal: `{"status": "REJECT"}` (or `decision`/`action`), or an answer that starts with the bare word REJECT. */
function refusalOf(value: unknown, raw: string): RefusalAttempt | null {
  if (isObject(value)) {
    const key = firstKey(value, ['status', 'decision', 'action', 'result']);
    if (
      key &&
      typeof value[key] === 'string' &&
      /^\s*reject(ed)?\s*$/i.test(value[key] as string)
    ) {
      const reason = value.reason ?? value.explanation ?? value.message ?? '';
      return {
        kind: 'refusal',
        reason: typeof reason === 'string' ? reason : JSON.stringify(reason),
        schemaIssues: [],
      };
    }
    return null;
  }
  const text = raw
    .replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '')
    .replace(/^```\w*\s*|```\s*$/g, '')
    .trim();
  if (value === null && REJECT_WORD.test(text)) {
    return {
      kind: 'refusal',
      reason: text.replace(REJECT_WORD, '').trim(),
      schemaIssues: ['refusal given as plain text, not JSON'],
    };
  }
  return null;
}

function packagingIssues(extracted: { repaired: boolean; embedded: boolean }): string[] {
  const issues: string[] = [];
  if (extracted.embedded) issues.push('JSON surrounded by other text or a code fence');
  if (extracted.repaired) issues.push('answer was not valid JSON and had to be repaired');
  return issues;
}

/** A tool call from any of the common spellings; null when it names no tool. */
export function toolCallOf(node: unknown, jsonDepth?: number): ToolCall | null {
  if (!isObject(node))
    return typeof node === 'string' && node.trim() ? { name: node.trim(), arguments: {} } : null;
  const fn = isObject(node.function) ? node.function : node;
  const name = fn.name ?? node.tool ?? node.tool_name ?? node.name;
  if (typeof name !== 'string' || !name.trim() || /^(none|null|n\/a)$/i.test(name.trim()))
    return null;
  const argumentsKey = firstKey(fn, [
    'parameter_description',
    'arguments',
    'parameters',
    'args',
    'params',
    'input',
  ]);
  const call: ToolCall = {
    name: name.trim(),
    arguments: argumentsKey ? parseArguments(fn[argumentsKey], jsonDepth) : {},
  };
  const reason = node.reason ?? node.rationale;
  if (typeof reason === 'string') call.reason = reason;
  return call;
}

function planText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map((item, index) =>
        typeof item === 'string' ? item : `${index + 1}. ${JSON.stringify(item)}`,
      )
      .join('\n');
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** `extractJson`, with text nested past the cap read as a parse failure (never a refusal, never a crash). */
function extractAnswer(
  raw: string,
  maxDepth: number | undefined,
): { extracted: ExtractedJson | null } | { failure: ParsedAnswer } {
  try {
    return { extracted: extractJson(raw, { repair: true, maxDepth }) };
  } catch (error) {
    if (error instanceof JsonTooDeepError)
      return { failure: { kind: 'parse_error', message: `the answer is ${error.message}` } };
    throw error;
  }
}

/**
 * Parses a holistic answer `{plan, tool_chain}` (or `{status: "REJECT", reason}`), nested at most
 * `jsonDepth` (the JSON cap; default `DEFAULT_LIMITS`').
 */
export function parseHolisticAnswer(raw: string, jsonDepth?: number): ParsedAnswer {
  const found = extractAnswer(raw, jsonDepth);
  if ('failure' in found) return found.failure;
  const { extracted } = found;
  const refusal = refusalOf(extracted?.value ?? null, raw);
  if (refusal)
    return {
      ...refusal,
      schemaIssues: [...(extracted ? packagingIssues(extracted) : []), ...refusal.schemaIssues],
    };
  if (!extracted)
    return {
      kind: 'parse_error',
      message: raw.trim() ? 'no JSON object found in the answer' : 'empty answer',
    };
  const issues = packagingIssues(extracted);
  let object: Loose;
  if (Array.isArray(extracted.value)) {
    issues.push('answer is a bare list, not {"plan", "tool_chain"}');
    object = { tool_chain: extracted.value };
  } else object = extracted.value as Loose;
  const chainKey = firstKey(object, [
    'tool_chain',
    'toolchain',
    'toolChain',
    'tool_calls',
    'chain',
    'tools',
    'steps',
  ]);
  const planKey = firstKey(object, ['plan', 'high_level_plan', 'plan_steps']);
  if (!chainKey && !planKey)
    return { kind: 'parse_error', message: 'the JSON has neither "plan" nor "tool_chain"' };
  if (chainKey && chainKey !== 'tool_chain') issues.push(`tool chain given as "${chainKey}"`);
  if (!planKey) issues.push('missing "plan"');
  if (!chainKey) issues.push('missing "tool_chain"');
  const chainValue = chainKey ? object[chainKey] : [];
  if (chainKey && !Array.isArray(chainValue))
    return { kind: 'parse_error', message: `"${chainKey}" is not a list` };
  const toolChain: ToolCall[] = [];
  (chainValue as unknown[]).forEach((node, index) => {
    const call = toolCallOf(node, jsonDepth);
    if (call) toolChain.push(call);
    else issues.push(`tool_chain[${index}] names no tool`);
  });
  return {
    kind: 'plan',
    plan: planText(planKey ? object[planKey] : ''),
    toolChain,
    schemaIssues: issues,
  };
}

function stepOf(node: unknown, jsonDepth: number | undefined): PredictedStep {
  if (!isObject(node))
    return { thought: typeof node === 'string' ? node : JSON.stringify(node), toolCall: null };
  const calls = Array.isArray(node.tool_calls)
    ? node.tool_calls
    : isObject(node.tool_calls)
      ? [node.tool_calls]
      : [];
  const toolCall =
    calls.length > 0
      ? toolCallOf(calls[0], jsonDepth)
      : toolCallOf({ ...node, name: node.tool ?? node.tool_name ?? node.name }, jsonDepth);
  const thought = node.thought ?? node.reasoning ?? node.think ?? '';
  const step: PredictedStep = {
    thought: typeof thought === 'string' ? thought : JSON.stringify(thought),
    toolCall,
  };
  const content = node.content ?? node.action ?? node.message;
  if (content !== undefined && content !== null)
    step.content = typeof content === 'string' ? content : JSON.stringify(content);
  return step;
}

/**
 * Parses a step-wise answer `{predicted_steps: [...]}` (and the common variants) for horizon k,
 * nested at most `jsonDepth` (the JSON cap; default `DEFAULT_LIMITS`').
 */
export function parseStepsAnswer(raw: string, horizon: number, jsonDepth?: number): ParsedAnswer {
  const found = extractAnswer(raw, jsonDepth);
  if ('failure' in found) return found.failure;
  const { extracted } = found;
  const refusal = refusalOf(extracted?.value ?? null, raw);
  if (refusal)
    return {
      ...refusal,
      schemaIssues: [...(extracted ? packagingIssues(extracted) : []), ...refusal.schemaIssues],
    };
  if (!extracted)
    return {
      kind: 'parse_error',
      message: raw.trim() ? 'no JSON object found in the answer' : 'empty answer',
    };
  const issues = packagingIssues(extracted);
  let nodes: unknown[];
  const value = extracted.value;
  if (Array.isArray(value)) {
    issues.push('answer is a bare list, not {"predicted_steps": [...]}');
    nodes = value;
  } else {
    const object = value as Loose;
    const listKey = firstKey(object, [
      'predicted_steps',
      'next_steps',
      'steps',
      'actions',
      'predictions',
    ]);
    const numbered = Object.keys(object).filter((key) => /^step_?\d+$/i.test(key));
    if (listKey && Array.isArray(object[listKey])) {
      if (listKey !== 'predicted_steps') issues.push(`steps given as "${listKey}"`);
      nodes = object[listKey] as unknown[];
    } else if (numbered.length > 0) {
      issues.push('steps given as numbered keys');
      nodes = numbered
        .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')))
        .map((key) => object[key]);
    } else if (firstKey(object, ['tool', 'tool_name', 'name', 'tool_calls', 'thought', 'action'])) {
      issues.push('a single step object instead of a list');
      nodes = [object];
    } else return { kind: 'parse_error', message: 'the JSON holds no "predicted_steps" list' };
  }
  if (nodes.length === 0) return { kind: 'parse_error', message: 'the answer lists no step' };
  if (nodes.length !== horizon) issues.push(`expected ${horizon} step(s), got ${nodes.length}`);
  return {
    kind: 'steps',
    steps: nodes.map((node) => stepOf(node, jsonDepth)),
    schemaIssues: issues,
  };
}
