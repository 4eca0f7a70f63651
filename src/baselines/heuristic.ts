/**
 * The heuristic baseline: a lexical-retrieval planner, a real and deterministic floor. It reads
 * ONLY `caseItem.input` (what a tested model sees), never `reference`, `facets` or `record`:
 * `answer` hands the input alone to `heuristicAnswer`, and a canary test holds it to that.
 */
import type { CaseInput, TrajectoryMessage } from '../dataset/case.js';
import {
  holisticAnswer,
  rejectAnswer,
  stepsAnswer,
  type BaselinePlanner,
  type StepNode,
} from './baseline.js';
import { fillArguments, visibleValues } from './fill-arguments.js';
import { scoreTools, verbClass, type ScoredTool } from './lexical.js';

/** Most tools a holistic plan takes. */
const MAX_PLAN_TOOLS = 8;
/** A tool joins the plan when it scores at least this share of the best tool's score. */
const RELATIVE_THRESHOLD = 0.4;
/** Executed messages, counted from the end, that join the query as retrieval text in step-wise cases. */
const RECENT_MESSAGES = 6;

/**
 * A request that points at material of its own (an attached receipt, the chart, this photo): when
 * the case carries no file, a planner cannot see it, and declining is the honest answer.
 */
const POINTS_AT_ATTACHMENT =
  /\b(?:attached|attachment|enclosed|(?:this|the) (?:screenshot|photo|picture|image|scan))\b/i;

const ERROR_RETURN =
  /\b(?:error|failed|failure|exception|timed?\s?out|unavailable|not found|invalid|denied|refused)\b/i;

/**
 * Read before compute before write; within a class, in the order the request mentions them; then by
 * score and listed order.
 */
function planOrder(left: ScoredTool, right: ScoredTool): number {
  return (
    verbClass(left.tool.name) - verbClass(right.tool.name) ||
    left.firstMention - right.firstMention ||
    right.score - left.score ||
    left.index - right.index
  );
}

function firstSentence(text: string): string {
  const sentence = text.split(/(?<=[.!?])\s/)[0] ?? '';
  return sentence.length > 100 ? `${sentence.slice(0, 97)}...` : sentence;
}

function reasonOf(scored: ScoredTool): string {
  return `heuristic baseline: the tool shares the words ${scored.matched.slice(0, 4).join(', ')} with the request`;
}

function holisticHeuristic(input: CaseInput): string {
  if (input.files.length === 0 && POINTS_AT_ATTACHMENT.test(input.query))
    return rejectAnswer(
      'heuristic baseline: the request points at an attachment it does not carry',
    );
  const scored = scoreTools([input.query, input.systemPrompt ?? ''].join('\n'), input.tools).filter(
    (item) => item.score > 0,
  );
  if (scored.length === 0)
    return rejectAnswer('heuristic baseline: no listed tool shares a word with the request');
  const best = Math.max(...scored.map((item) => item.score));
  const chosen = scored
    .filter((item) => item.score >= RELATIVE_THRESHOLD * best)
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .slice(0, MAX_PLAN_TOOLS)
    .sort(planOrder);
  const pool = visibleValues(input.query);
  const plan = chosen
    .map(
      (item, index) =>
        `${index + 1}. Call ${item.tool.name}: ${firstSentence(item.tool.description) || 'no description'}`,
    )
    .join('\n');
  return holisticAnswer(
    plan,
    chosen.map((item) => ({
      name: item.tool.name,
      parameter_description: fillArguments(item.tool, input.query, input.query, pool),
      reason: reasonOf(item),
    })),
  );
}

/** Names of tools the executed prefix called whose return did not report an error. */
export function succeededTools(prefix: readonly TrajectoryMessage[]): Set<string> {
  const succeeded = new Set<string>();
  const pending: string[] = [];
  for (const message of prefix) {
    if (message.role === 'assistant') pending.push(...message.toolCalls.map((call) => call.name));
    else if (message.role === 'tool' && pending.length > 0) {
      const name = pending.shift()!;
      if (!ERROR_RETURN.test(message.text)) succeeded.add(name);
    }
  }
  // A call with no recorded return was still executed: count it as done.
  for (const name of pending) succeeded.add(name);
  return succeeded;
}

function messageText(message: TrajectoryMessage): string {
  return [message.text, message.thought ?? '', message.action ?? ''].join('\n');
}

function stepWiseHeuristic(input: CaseInput): string {
  const recent = input.trajectoryPrefix.slice(-RECENT_MESSAGES).map(messageText).join('\n');
  const context = [input.query, input.systemPrompt ?? '', recent].join('\n');
  const done = succeededTools(input.trajectoryPrefix);
  const scored = scoreTools(context, input.tools).filter((item) => item.score > 0);
  if (scored.length === 0)
    return rejectAnswer('heuristic baseline: no listed tool shares a word with the task');
  const k = input.horizon ?? 1;
  const chosen = scored
    .filter((item) => !done.has(item.tool.name))
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .slice(0, k)
    .sort(planOrder);
  const pool = visibleValues(context);
  const steps: StepNode[] = chosen.map((item) => ({
    thought: reasonOf(item),
    tool: item.tool.name,
    arguments: fillArguments(item.tool, context, input.query, pool),
  }));
  // Fewer fitting tools than actions asked: the remaining actions report back to the user.
  while (steps.length < k)
    steps.push({
      thought: 'heuristic baseline: no further matching tool; report the results',
      tool: null,
      arguments: {},
      content: 'Report the results to the user.',
    });
  return stepsAnswer(steps);
}

/** The heuristic answer from the planner-visible input alone. */
export function heuristicAnswer(input: CaseInput): string {
  return input.regime === 'Step-wise' ? stepWiseHeuristic(input) : holisticHeuristic(input);
}

/** Lexical-retrieval planner: picks the tools whose names and descriptions share the most words with the request. */
export const heuristicBaseline: BaselinePlanner = {
  id: 'heuristic',
  description:
    'heuristic baseline: lexical tool retrieval (BM25-lite), read-before-write ordering, arguments copied from the request; declines a request that points at an attachment it was not given',
  answer: (caseItem) => heuristicAnswer(caseItem.input),
};
