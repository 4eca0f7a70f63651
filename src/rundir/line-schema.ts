/**
 * What a run-directory store needs of a schema: zod's `safeParse` shape, so a zod schema of
 * `src/rundir/schemas/` plugs in as is, while the core itself depends on no schema library.
 */

/** One problem a schema found, at a path inside the value. */
export interface SchemaIssue {
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
}

/** A schema for one kind of line (or file): zod's `safeParse` contract. */
export interface LineSchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** A checked line, or the first problem as a field path and a message. */
export type CheckedLine<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/** Runs `schema` over `value`, naming the first issue's field (`a.b[0].c`) for the FILE:LINE: field message. */
export function checkLine<T>(schema: LineSchema<T>, value: unknown): CheckedLine<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return {
    ok: false,
    field: issue ? fieldPath(issue.path) : '(line)',
    message: issue?.message ?? 'does not match the schema',
  };
}

function fieldPath(parts: ReadonlyArray<PropertyKey>): string {
  if (parts.length === 0) return '(line)';
  return parts
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/**
 * A schema that accepts any JSON object as a `T`: the stand-in for a file whose zod schema has not
 * been written yet (the line types are then trusted as they were before schemas).
 */
export function trustedObject<T extends object>(): LineSchema<T> {
  return {
    safeParse: (value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? { success: true, data: value as T }
        : { success: false, error: { issues: [{ path: [], message: 'expected a JSON object' }] } },
  };
}
