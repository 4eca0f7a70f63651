/** `module:PATH`, `cmd:COMMAND`, `http:URL`: the specs of planners and agents written as code. */

/** The three ways a planner or agent as code is reached. */
export const CODE_FORMS = ['module', 'cmd', 'http'] as const;
/** One of `module`, `cmd`, `http`. */
export type CodeForm = (typeof CODE_FORMS)[number];

/** A parsed code spec: its form, what follows the colon, and the spec as written (its id). */
export interface CodeSpec {
  form: CodeForm;
  target: string;
  spec: string;
}

/** True when `spec` names a planner or agent as code (whatever follows the colon). */
export function isCodeSpec(spec: string): boolean {
  return parseCodeSpec(spec) !== null;
}

/** `module:./p.ts` → `{form: 'module', target: './p.ts'}`; null for any other spec. */
export function parseCodeSpec(spec: string): CodeSpec | null {
  const colon = spec.indexOf(':');
  if (colon < 0) return null;
  const form = spec.slice(0, colon);
  if (!(CODE_FORMS as readonly string[]).includes(form)) return null;
  return { form: form as CodeForm, target: spec.slice(colon + 1).trim(), spec };
}

/** How reports name a code spec's kind: `module:./p.ts` → `planner as code (module)`. */
export function codeKindLabel(spec: string): string | null {
  const parsed = parseCodeSpec(spec);
  return parsed ? `as code: ${parsed.form}` : null;
}
