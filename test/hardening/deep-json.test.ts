/**
 * Seen 2: a deeply nested reply or dataset field kills nothing. A planner reply nested 5,000
 * levels deep (what a model stuck repeating itself reaches in ~6k output tokens) becomes that
 * case's `parse_error`, is not cached, and a second run with the cache completes too; a dataset
 * field nested 10,000 deep is a problem `apb data validate` reports and `apb run` refuses.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cli,
  readJsonl,
  readManifest,
  SECRET_KEY,
  tempDir,
  useScriptedServer,
} from '../engine/helpers.js';
import { holisticRecord, writeDataset } from '../helpers/dataset.js';
import { parseHolisticAnswer, parseStepsAnswer } from '../../src/settings/parse-answer.js';
import { extractReplyJson } from '../../src/judge/reply-json.js';
import { parseArguments } from '../../src/dataset/normalize.js';

const fake = useScriptedServer();
const DEEP_REPLY = `{"plan": "loop", "tool_chain": ${'['.repeat(5000)}${']'.repeat(5000)}}`;

describe('deeply nested JSON', () => {
  it('a 5,000-deep planner reply: the run completes with that case parse_error; a second run with the cache completes too', async () => {
    const deepCase = fake.script.cases.find((item) => item.split === 'holistic_planning')!;
    fake.server.configure({
      respond: (request) =>
        fake.script.caseOf(request) === `${deepCase.split}/${deepCase.id}`
          ? { text: DEEP_REPLY }
          : fake.script.respond(request),
    });
    const cacheDir = tempDir();
    const args = (out: string) => [
      'run',
      '--model',
      'openai:gpt-4o',
      '--base-url',
      fake.server.baseUrl('openai'),
      '--out',
      out,
      '--splits',
      'holistic_planning',
      '--limit',
      '3',
    ];
    const env = { OPENAI_API_KEY: SECRET_KEY, APB_CACHE_DIR: cacheDir };
    const out = path.join(tempDir(), 'run');
    const first = await cli(args(out), env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('internal error');
    const line = readJsonl(path.join(out, 'predictions.jsonl')).find(
      (entry) => entry.id === deepCase.id,
    )!;
    expect(line.apb.status).toBe('parse_error');
    expect(line.apb.parse_error).toMatch(/nested more than 256 levels deep/);
    expect(readManifest(out).status).toBe('complete');

    // Resuming the same directory and running a new one with the cache both complete; the deep reply was not cached.
    const requests = fake.server.count();
    const resumed = await cli(args(out), env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(fake.server.count()).toBe(requests);
    const again = path.join(tempDir(), 'run');
    const second = await cli(args(again), env);
    expect(second.code, second.stderr).toBe(0);
    expect(fake.server.count()).toBe(requests + 1);
    expect(
      readJsonl(path.join(again, 'predictions.jsonl')).find((entry) => entry.id === deepCase.id)!
        .apb.status,
    ).toBe('parse_error');
  }, 60_000);

  it('a dataset field nested 10,000 deep: validate reports FILE:LINE: field, run refuses with exit 2', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const dir = writeDataset({
      holistic_planning: [
        JSON.stringify(holisticRecord({ id: 'ok-1' })),
        JSON.stringify(holisticRecord({ id: 'deep-1', tool_chain_json: deep })),
      ],
    });
    const validate = await cli(['data', 'validate', dir]);
    expect(validate.code).toBe(1);
    expect(validate.stdout + validate.stderr).toMatch(
      /data\/holistic_planning\.jsonl:2: tool_chain_json: nested more than 256 levels deep/,
    );
    const run = await cli(['run', '--data', dir, '--out', path.join(tempDir(), 'run')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /holistic_planning\.jsonl:2: tool_chain_json: nested more than 256 levels deep/,
    );
    expect(run.stderr).not.toContain('internal error');
    // A whole line nested that deep is caught the same way.
    const line = writeDataset({ holistic_planning: [`{"id": ${deep}}`] });
    const lineRun = await cli(['data', 'validate', line]);
    expect(lineRun.code).toBe(1);
    expect(lineRun.stdout + lineRun.stderr).toMatch(
      /holistic_planning\.jsonl:1: \(line\): nested more than 256 levels deep/,
    );
  }, 60_000);

  it('every reader of untrusted replies turns depth into a failure, never a stack overflow', () => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    expect(parseHolisticAnswer(deep)).toMatchObject({
      kind: 'parse_error',
      message: expect.stringMatching(/nested more than 256/),
    });
    expect(parseStepsAnswer(`\`\`\`json\n${deep}\n\`\`\``, 1)).toMatchObject({
      kind: 'parse_error',
    });
    expect(extractReplyJson(deep)).toMatchObject({ ok: false, problem: 'too-deep' });
    // An argument string that holds deep JSON stays a string instead of becoming a deep value.
    expect(parseArguments(deep)).toBe(deep);
    // 256 levels are still read.
    const fine = `{"plan": "p", "tool_chain": [{"name": "t", "arguments": ${'['.repeat(240)}${']'.repeat(240)}}]}`;
    expect(parseHolisticAnswer(fine).kind).toBe('plan');
  });
});
