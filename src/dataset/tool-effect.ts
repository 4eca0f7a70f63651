/**
 * Whether a tool only reads or changes state. An explicit annotation wins (MCP's `readOnlyHint` /
 * `destructiveHint`, a `side_effect` / `read_only` field, read by `normalizeTool` into
 * `Tool.readOnly`); else the HTTP method its description names (`GET /…`); else the first verb
 * of its name, then of its description, from two word lists. The rule and the lists:
 * docs/rules-judge.md ("State-changing tools"); every tool of the real fixtures is pinned in
 * test/fixtures/labelled/tool-effects.json.
 */
import type { Tool } from './case.js';

/** What a tool does to the world it acts on. */
export type ToolEffect = 'read-only' | 'state-changing' | 'unknown';

/** A classification and what it rests on. */
export interface EffectReading {
  effect: ToolEffect;
  basis: 'annotation' | 'http-method' | 'name' | 'description' | 'none';
  /** The word or method that decided, when one did. */
  word?: string;
}

/** Verbs of tools that only look things up or compute from their inputs. */
export const READ_VERBS = new Set([
  'get',
  'list',
  'search',
  'find',
  'lookup',
  'look',
  'fetch',
  'read',
  'query',
  'check',
  'view',
  'show',
  'calculate',
  'calc',
  'compute',
  'retrieve',
  'describe',
  'count',
  'validate',
  'verify',
  'discover',
  'browse',
  'detect',
  'estimate',
  'recognize',
  'recognise',
  'extract',
  'parse',
  'convert',
  'translate',
  'summarize',
  'summarise',
  'analyze',
  'analyse',
  'compare',
  'predict',
  'classify',
  'locate',
  'identify',
  'inspect',
  'preview',
  'download',
  'track',
  'explore',
  'scan',
  'match',
  'measure',
  'evaluate',
  'explain',
  'filter',
  'sort',
  'resolve',
  'geocode',
  'ocr',
  'caption',
  'transcribe',
  'think',
  'load',
  'obtain',
  'poll',
  'trending',
]);

/** Verbs of tools that create, change, delete, pay, send or hand over something. */
export const WRITE_VERBS = new Set([
  'create',
  'add',
  'insert',
  'update',
  'modify',
  'edit',
  'change',
  'set',
  'delete',
  'remove',
  'cancel',
  'book',
  'reserve',
  'purchase',
  'buy',
  'pay',
  'send',
  'post',
  'submit',
  'transfer',
  'exchange',
  'return',
  'refund',
  'upload',
  'write',
  'save',
  'move',
  'rename',
  'assign',
  'schedule',
  'register',
  'enroll',
  'apply',
  'approve',
  'reject',
  'publish',
  'share',
  'order',
  'checkout',
  'subscribe',
  'unsubscribe',
  'archive',
  'restore',
  'reset',
  'install',
  'uninstall',
  'deploy',
  'execute',
  'launch',
  'lock',
  'unlock',
  'block',
  'unblock',
  'grant',
  'revoke',
  'invite',
  'ban',
  'follow',
  'unfollow',
  'like',
  'comment',
  'reply',
  'mark',
  'upgrade',
  'downgrade',
  'renew',
  'charge',
  'withdraw',
  'deposit',
  'issue',
  'redeem',
  'claim',
  'merge',
  'push',
  'commit',
  'replace',
  'clear',
  'drop',
  'kill',
  'terminate',
  'confirm',
  'accept',
  'decline',
  'revert',
  'undo',
  'sync',
  'import',
  'notify',
  'email',
  'message',
  'rate',
  'review',
  'vote',
  'enable',
  'disable',
  'activate',
  'deactivate',
  'close',
  'place',
]);

/** The lower-case words of an identifier or a sentence: snake_case, kebab-case, camelCase and digits split. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

function byWords(words: readonly string[]): { effect: ToolEffect; word: string } | null {
  for (const word of words) {
    // Third-person forms ("Describes", "Cancels") count as the verb.
    for (const form of [word, word.replace(/s$/, ''), word.replace(/es$/, '')]) {
      if (WRITE_VERBS.has(form)) return { effect: 'state-changing', word: form };
      if (READ_VERBS.has(form)) return { effect: 'read-only', word: form };
    }
  }
  return null;
}

/** The effect of one tool, and why. */
export function toolEffect(tool: Tool): EffectReading {
  if (tool.readOnly !== undefined)
    return { effect: tool.readOnly ? 'read-only' : 'state-changing', basis: 'annotation' };
  const method = /\b(GET|HEAD|POST|PUT|PATCH|DELETE)\s+\//.exec(tool.description ?? '')?.[1];
  if (method)
    return {
      effect: method === 'GET' || method === 'HEAD' ? 'read-only' : 'state-changing',
      basis: 'http-method',
      word: method,
    };
  const fromName = byWords(wordsOf(tool.name));
  if (fromName) return { ...fromName, basis: 'name' };
  // The description's first sentence, and only its first dozen words: later ones describe results.
  const sentence =
    (tool.description ?? '').replace(/^\s*\[[^\]]*\]\s*/, '').split(/[.!?\n]/)[0] ?? '';
  const fromDescription = byWords(wordsOf(sentence).slice(0, 12));
  if (fromDescription) return { ...fromDescription, basis: 'description' };
  return { effect: 'unknown', basis: 'none' };
}

/** The effect of a called name under a case's tools: unknown for a name that is not listed. */
export function effectOfCall(tools: readonly Tool[], name: string): ToolEffect {
  const tool = tools.find((candidate) => candidate.name === name);
  return tool ? toolEffect(tool).effect : 'unknown';
}
