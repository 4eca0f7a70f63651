/**
 * The compiled acceptance test agrees with zod: on every sample record and decoded field, and on
 * thousands of seeded mutations of them (wrong types, nulls, missing keys, empty names, bad enums).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptsAsIs } from '../../src/dataset/accepts-as-is.js';
import { FileEntrySchema, JSON_FIELDS, RecordSchema } from '../../src/dataset/record-schema.js';
import { seededRandom } from '../fake-server/replies.js';

const SAMPLE = path.resolve(import.meta.dirname, '../../sample/data');
const records: Record<string, unknown>[] = readdirSync(SAMPLE)
  .filter((file) => file.endsWith('.jsonl'))
  .flatMap((file) => readFileSync(path.join(SAMPLE, file), 'utf8').split('\n').filter(Boolean))
  .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Every (schema, value) pair the validation pass checks, from one record. */
function checkedValues(record: Record<string, unknown>): Array<[string, z.ZodType, unknown]> {
  const pairs: Array<[string, z.ZodType, unknown]> = [['record', RecordSchema, record]];
  for (const [field, schema] of Object.entries(JSON_FIELDS)) {
    const raw = record[field];
    if (typeof raw === 'string' && raw !== '') pairs.push([field, schema, JSON.parse(raw)]);
  }
  for (const entry of (record.files as unknown[] | undefined) ?? [])
    pairs.push(['files[]', FileEntrySchema, entry]);
  return pairs;
}

const REPLACEMENTS: unknown[] = [
  null,
  undefined,
  '',
  'x',
  'holistic_planning',
  'function',
  0,
  -1,
  2,
  1.5,
  Infinity,
  true,
  [],
  {},
  ['x'],
  [{}],
  { name: '' },
  { name: 'tool' },
  { path: '' },
];

/** A copy of `value` with one random node replaced, or deleted when the replacement is undefined. */
function mutate(value: unknown, random: () => number): unknown {
  const copy = structuredClone(value);
  const containers: Array<Record<string, unknown> | unknown[]> = [];
  const walk = (node: unknown) => {
    if (node && typeof node === 'object') {
      containers.push(node as Record<string, unknown>);
      for (const child of Object.values(node)) walk(child);
    }
  };
  walk(copy);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const replacement = pick(REPLACEMENTS);
  if (containers.length === 0) return replacement;
  const target = pick(containers);
  const keys = Object.keys(target);
  if (keys.length === 0) return replacement;
  const key = pick(keys);
  if (replacement === undefined && !Array.isArray(target)) delete target[key];
  else (target as Record<string, unknown>)[key] = structuredClone(replacement);
  return copy;
}

function expectAgreement(schema: z.ZodType, value: unknown, label: string) {
  const fast = acceptsAsIs(schema)(value);
  const zod = schema.safeParse(value);
  expect(fast, `${label}: ${JSON.stringify(value)?.slice(0, 300)}`).toBe(zod.success);
  if (fast && zod.success) expect(zod.data).toEqual(value);
}

describe('acceptsAsIs', () => {
  it('says yes to every sample record and decoded field, as zod does, and zod returns the same value', () => {
    expect(records.length).toBeGreaterThan(20);
    for (const record of records)
      for (const [label, schema, value] of checkedValues(record))
        expectAgreement(schema, value, label);
  });

  it('agrees with zod on 6,000 seeded mutations of them', () => {
    const random = seededRandom(42);
    let rejected = 0;
    for (let round = 0; round < 6000; round += 1) {
      const record = records[round % records.length]!;
      const pairs = checkedValues(record);
      const [label, schema, value] = pairs[Math.floor(random() * pairs.length)]!;
      const mutant = mutate(value, random);
      if (!schema.safeParse(mutant).success) rejected += 1;
      expectAgreement(schema, mutant, `${label} (round ${round})`);
    }
    // The mutations reach both outcomes in earnest.
    expect(rejected).toBeGreaterThan(1000);
    expect(rejected).toBeLessThan(5000);
  });

  it('asks zod (says no) for what it cannot vouch for: unknown checks, transforms, stripping objects, async refinements', () => {
    const unknowable: Array<[z.ZodType, unknown]> = [
      [z.string().regex(/^a/), 'abc'],
      [z.string().transform((text) => text.length), 'abc'],
      [z.object({ a: z.string() }), { a: 'x', extra: 1 }],
      [z.object({ a: z.string() }).strict(), { a: 'x' }],
      [z.record(z.string(), z.number()), { a: 1 }],
      [z.string().default('x'), 'y'],
      [
        z
          .object({ a: z.number() })
          .loose()
          .refine(async () => true),
        { a: 1 },
      ],
    ];
    for (const [schema, value] of unknowable) expect(acceptsAsIs(schema)(value)).toBe(false);
  });

  it('reads the checks it knows exactly at their bounds', () => {
    const cases: Array<[z.ZodType, unknown]> = [
      [z.string().min(2), 'a'],
      [z.string().min(2), 'ab'],
      [z.number().nonnegative(), 0],
      [z.number().nonnegative(), -0.5],
      [z.number().positive(), 0],
      [z.number().int(), 1.5],
      [z.number().int(), 2 ** 53],
      [z.number(), Number.NaN],
      [z.enum(['a', 'b']), 'c'],
      [z.literal('x'), 'x'],
      [z.object({ a: z.unknown() }).loose(), {}],
      [z.object({ a: z.unknown().optional() }).loose(), {}],
      [z.object({ a: z.string() }).loose(), []],
    ];
    for (const [schema, value] of cases) expectAgreement(schema, value, JSON.stringify(value));
  });
});
