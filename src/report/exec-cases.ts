/**
 * The exec report's case browser (HTML): one execution as an expandable case with its
 * conversation, tool calls and results, the plan the agent was shown with its APB judgement before
 * and after refinement, and the reward breakdown with the database difference. Model and tool text
 * is untrusted: every piece is escaped.
 */
import type { ExecutionLine } from '../execution/records.js';
import { escapeHtml } from './escape.js';
import { facetAttributes } from './exec-filters.js';
import { plainTable } from './html-table.js';
import { fixed } from './numbers.js';

/** One message of the conversation, by role; an agent's tool calls follow its text. */
function messageHtml(message: ExecutionLine['messages'][number]): string {
  if (message.role === 'tool')
    return `<div class="msg tool${message.error ? ' bad' : ''}"><b>${escapeHtml(message.name)} →</b> <pre>${escapeHtml(message.content)}</pre></div>`;
  if (message.role === 'user')
    return `<div class="msg user"><b>user</b> <pre>${escapeHtml(message.content)}</pre></div>`;
  const calls = (message.tool_calls ?? [])
    .map(
      (call) =>
        `<div class="call">calls <code>${escapeHtml(call.name)}(${escapeHtml(JSON.stringify(call.arguments))})</code></div>`,
    )
    .join('');
  return `<div class="msg agent"><b>agent</b> ${message.content ? `<pre>${escapeHtml(message.content)}</pre>` : ''}${calls}</div>`;
}

/** The plan the agent was shown, its verdicts before and after refinement, every critique. */
function planHtml(line: ExecutionLine): string {
  if (!line.plan) return '';
  const verdict = (
    label: string,
    judged: NonNullable<ExecutionLine['plan']>['before'] | undefined,
  ) =>
    judged
      ? `<p>${escapeHtml(label)}: ${judged.judgement.judgement.is_correct ? 'correct' : 'not correct'}, grade ${escapeHtml(fixed(judged.judgement.judgement.grade, 1))} (${escapeHtml(judged.judgement.judge)}) — ${escapeHtml(judged.judgement.judgement.reasoning)}</p>`
      : '';
  const critiques = (line.plan.after?.plan.rounds ?? [])
    .map(
      (round) =>
        `<p>critique (round ${round.round}): <pre>${escapeHtml(round.critique.text ?? '')}</pre></p>`,
    )
    .join('');
  return `<h4>Plan shown to the agent</h4><pre>${escapeHtml(line.plan.shown ?? '(none)')}</pre>${verdict('Draft plan (APB)', line.plan.before)}${critiques}${verdict('Refined plan (APB)', line.plan.after)}`;
}

/** The reward's components, and the database difference when there is one. */
function rewardHtml(line: ExecutionLine): string {
  const info = Object.entries(line.reward_info).map(([key, value]) => [
    key,
    value === null ? 'not in basis / not evaluated' : String(value),
  ]);
  const diff = Array.isArray(line.reward_details.db_differences)
    ? (line.reward_details.db_differences as Array<Record<string, unknown>>)
    : [];
  return `<h4>Reward ${escapeHtml(fixed(line.reward, 2))}</h4>${plainTable(['Component', 'Value'], info)}${diff.length > 0 ? `<h4>Database difference (expected vs final)</h4>${diffTable(diff)}` : '<p class="note">Final database: no difference from the expected one (or not compared).</p>'}`;
}

/** The database difference with expected and final records pretty-printed and wrapped inside the page's width (never cut at the right). */
function diffTable(diff: readonly Record<string, unknown>[]): string {
  const json = (value: unknown) =>
    `<pre>${escapeHtml(value === undefined ? '(absent)' : JSON.stringify(value, null, 2))}</pre>`;
  const rows = diff
    .map(
      (entry) =>
        `<tr><td>${escapeHtml(String(entry.collection ?? ''))}</td><td>${escapeHtml(String(entry.key ?? ''))}</td><td>${json(entry.expected)}</td><td>${json(entry.actual)}</td></tr>`,
    )
    .join('');
  return `<table class="data db-diff"><thead><tr><th>Collection</th><th>Key</th><th>Expected</th><th>Final</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** One execution as an expandable case. */
export function executionHtml(line: ExecutionLine): string {
  const title = `${line.task_id} · ${line.mode} · trial ${line.trial} · reward ${fixed(line.reward, 2)} · ${line.termination}${line.stop_signal ? ` (${line.stop_signal})` : ''}`;
  return `<details class="case"${facetAttributes(line)}><summary>${escapeHtml(title)}</summary>${planHtml(line)}<h4>Conversation</h4>${line.messages.map(messageHtml).join('')}${line.error ? `<p class="warning">${escapeHtml(`${line.error.role} call failed: ${line.error.message}`)}</p>` : ''}${rewardHtml(line)}</details>`;
}

/** The case browser's styles: messages by role, the expandable cases, the database difference. */
export const EXEC_CSS = `.msg { margin: 4px 0; padding: 4px 8px; border-left: 3px solid var(--line); } .msg pre { white-space: pre-wrap; margin: 2px 0; display: inline; } .msg.user { border-color: var(--accent); } .msg.tool { border-color: var(--muted); } .msg.bad { border-color: var(--bad); } details.case { border: 1px solid var(--line); margin: 6px 0; padding: 4px 8px; } pre { white-space: pre-wrap; } table.db-diff { table-layout: fixed; width: 100%; } table.db-diff th:nth-child(-n+2) { width: 14%; } table.db-diff td { white-space: normal; vertical-align: top; overflow-wrap: anywhere; } table.db-diff pre { overflow-wrap: anywhere; word-break: break-all; max-height: 320px; }`;
