/**
 * The answer against the reference, step by step: its calls in the reference's shape and a table
 * marking each step the same call, the same tool, or different.
 */
import { el, type Child } from './dom.js';
import type { CaseDetail } from './page-data.js';

type Call = CaseDetail['referenceCalls'][number];

/** The answer as JSON pretty-printed when the whole of it (or its one fenced block) is a JSON object or list; null otherwise. */
export function prettyAnswer(text: string | null): string | null {
  let body = String(text || '').trim();
  const fence = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(body);
  if (fence) body = fence[1]!;
  if (!/^[[{]/.test(body)) return null;
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? JSON.stringify(value, null, 2) : null;
  } catch {
    return null;
  }
}

function argsText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

interface ParsedCall {
  name: string;
  arguments?: unknown;
}
interface ParsedStep {
  toolCall?: ParsedCall | null;
  content?: string;
  thought?: string;
}

/** The answer's calls in order, in the reference's shape (name null for a text-only step). */
export function answerCalls(parsed: unknown): Call[] {
  if (!parsed || typeof parsed !== 'object') return [];
  const answer = parsed as { kind?: string; toolChain?: unknown; steps?: unknown };
  if (answer.kind === 'plan' && Array.isArray(answer.toolChain))
    return (answer.toolChain as ParsedCall[]).map((call) => ({
      name: call.name,
      arguments: argsText(call.arguments),
    }));
  if (answer.kind === 'steps' && Array.isArray(answer.steps))
    return (answer.steps as ParsedStep[]).map((step) =>
      step.toolCall
        ? { name: step.toolCall.name, arguments: argsText(step.toolCall.arguments) }
        : { name: null, arguments: step.content || step.thought || '' },
    );
  return [];
}

function callCell(call: Call | undefined): HTMLElement {
  if (!call) return el('td', { className: 'none', text: '–' });
  const name: Child =
    call.name === null ? el('em', { text: 'text' }) : el('code', { text: call.name });
  const args = call.arguments ? el('div', { className: 'args', text: call.arguments }) : null;
  return el('td', {}, [name, args]);
}

const MARKS = { same: '✓ same call', tool: '≈ same tool', differs: '✗ differs' };

/** Reference and answer side by side, or null when neither has a step. */
export function stepTable(reference: readonly Call[], answer: readonly Call[]): HTMLElement | null {
  const count = Math.max(reference.length, answer.length);
  if (count === 0) return null;
  const rows: HTMLElement[] = [];
  for (let i = 0; i < count; i += 1) {
    const ref = reference[i];
    const got = answer[i];
    const match =
      ref && got && ref.name === got.name
        ? ref.arguments === got.arguments
          ? 'same'
          : 'tool'
        : 'differs';
    rows.push(
      el('tr', { className: `step ${match}` }, [
        el('td', { className: 'num', text: String(i + 1) }),
        callCell(ref),
        callCell(got),
        el('td', { className: 'match', text: MARKS[match] }),
      ]),
    );
  }
  const heads = ['Step', 'Reference', 'This answer', 'Match'].map((text) => el('th', { text }));
  const table = el('table', { className: 'data steps' }, [
    el('thead', {}, [el('tr', {}, heads)]),
    el('tbody', {}, rows),
  ]);
  return el('div', { className: 'table-wrap' }, [el('div', { className: 'scroll' }, [table])]);
}
