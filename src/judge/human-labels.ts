/**
 * Human labels for judge calibration (paper Appendix D): a JSONL file, one label per line, keyed
 * by (`id`, `tested_model`). Parsed strictly with zod; every problem is reported as FILE:LINE:
 * field: message. The format is documented in docs/judge.md ("Human labels").
 */
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { z } from 'zod';
import { InputError, type InputIssue } from '../errors.js';
import { GRADE_GRID } from './verdict.js';
import { parseUntrustedJson } from '../json-depth.js';

const Bit = z.union([z.literal(0), z.literal(1)], { error: 'expected 0 or 1' });

/** One line of a human-label file. Unknown keys (annotator, comment…) are allowed and ignored. */
export const HumanLabelSchema = z
  .object({
    id: z
      .union([z.string().min(1), z.number()], { error: 'expected a non-empty string id' })
      .transform(String),
    tested_model: z.string({ error: 'expected a string' }).min(1, 'must not be empty'),
    is_correct: z.boolean({ error: 'expected true or false' }),
    grade: z
      .number({ error: 'expected a number' })
      .refine(
        (value) => (GRADE_GRID as readonly number[]).includes(value),
        'must be one of 0, 0.2, 0.4, 0.6, 0.8, 1',
      ),
    error_list: z
      .array(Bit, { error: 'expected an array of six 0/1 integers' })
      .length(6, 'must hold exactly six entries (E1..E6)'),
    /** The human judged the answer correct though it differs from the reference (paper Table 8). */
    correct_but_different: z.boolean({ error: 'expected true or false' }).optional(),
  })
  .superRefine((label, context) => {
    if (label.is_correct && label.error_list.includes(1))
      context.addIssue({
        code: 'custom',
        path: ['error_list'],
        message: 'a correct answer has no error flagged',
      });
    if (label.correct_but_different && !label.is_correct)
      context.addIssue({
        code: 'custom',
        path: ['correct_but_different'],
        message: 'only a correct answer can be correct but different',
      });
  });

/** A validated human label. */
export type HumanLabel = z.infer<typeof HumanLabelSchema>;

/** The join key of labels and judged rows. */
export function labelKey(id: string, testedModel: string): string {
  return `${id}\u0000${testedModel}`;
}

function fieldOf(path: readonly PropertyKey[]): string {
  return (
    path
      .map((key) => (typeof key === 'number' ? `[${key}]` : String(key)))
      .join('.')
      .replace(/\.\[/g, '[') || '(line)'
  );
}

/**
 * Parses a human-label JSONL text (each line nested at most `limits.jsonDepth`); throws
 * `InputError` listing every problem (blank lines are skipped).
 */
export function parseHumanLabels(
  text: string,
  file: string,
  limits: Pick<Limits, 'jsonDepth'> = DEFAULT_LIMITS,
): HumanLabel[] {
  const labels: HumanLabel[] = [];
  const issues: InputIssue[] = [];
  const seen = new Map<string, number>();
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const line = index + 1;
      if (!raw.trim()) return;
      let json: unknown;
      try {
        json = parseUntrustedJson(raw, limits.jsonDepth);
      } catch (error) {
        issues.push({
          file,
          line,
          field: '(line)',
          message: `invalid JSON: ${(error as Error).message}`,
        });
        return;
      }
      const parsed = HumanLabelSchema.safeParse(json);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          issues.push({ file, line, field: fieldOf(issue.path), message: issue.message });
        return;
      }
      const key = labelKey(parsed.data.id, parsed.data.tested_model);
      const first = seen.get(key);
      if (first !== undefined)
        issues.push({
          file,
          line,
          field: 'id',
          message: `duplicate label for (${parsed.data.id}, ${parsed.data.tested_model}); first on line ${first}`,
        });
      else {
        seen.set(key, line);
        labels.push(parsed.data);
      }
    });
  if (issues.length > 0) throw new InputError(issues);
  return labels;
}
