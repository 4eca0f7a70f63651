/**
 * Parity with tau2-bench's own code: every call sequence in test/fixtures/tau2-parity/ returns the
 * text (or its sha256) tau2's Python tools returned, error texts included, and leaves the database
 * with exactly the entities tau2 changed, each serialised as tau2 hashes it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { pyJsonDumps } from '../../src/execution/environments/tau2/python-json.js';
import { AirlineDb } from '../../src/execution/environments/tau2/airline/model.js';
import { RetailDb } from '../../src/execution/environments/tau2/retail/model.js';
import { loadEnvironment } from '../../src/execution/registry.js';
import { REPO_ROOT } from '../helpers/cli.js';

interface ParityCase {
  id: string;
  domain: 'retail' | 'airline';
  calls: { name: string; arguments: unknown }[];
  outputs: { error: boolean; content?: string; sha256?: string }[];
  changed: Record<string, string>;
}

const MODELS: Record<string, z.ZodObject> = { retail: RetailDb, airline: AirlineDb };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function cases(domain: string): ParityCase[] {
  const file = path.join(REPO_ROOT, 'test', 'fixtures', 'tau2-parity', `${domain}.jsonl`);
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ParityCase);
}

describe.each(Object.keys(MODELS))("tau2:%s against tau2-bench's tools", (domain) => {
  const environment = loadEnvironment(`tau2:${domain}`);
  const model = MODELS[domain]!;
  it.each(cases(domain).map((parity) => [parity.id, parity] as const))('%s', (_id, parity) => {
    const session = environment.openSession();
    const outputs = parity.calls.map((call) => {
      const outcome = session.callTool(call.name, call.arguments);
      return {
        error: outcome.error,
        ...(outcome.content.length <= 400
          ? { content: outcome.content }
          : { sha256: sha256(outcome.content) }),
      };
    });
    expect(outputs).toEqual(parity.outputs);
    const changed: Record<string, string> = {};
    for (const difference of session.database().differences(environment.openSession().database())) {
      const schema = (model.shape[difference.collection] as unknown as { valueType: z.ZodType })
        .valueType;
      changed[`${difference.collection}/${difference.key}`] = sha256(
        pyJsonDumps(difference.actual, schema, true),
      );
    }
    expect(changed).toEqual(parity.changed);
  });
});
