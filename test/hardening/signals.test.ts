/**
 * Seen 6: SIGHUP (a dropped SSH session), SIGQUIT and SIGTERM take the Ctrl-C path: cases in
 * flight finish, the manifest says `interrupted`, scores and reports are written, exit 130, and
 * the directory resumes. For SIGHUP the terminal is gone too: the child's stdout and stderr are
 * closed before the signal, so every line it still prints fails, and the ending must survive that.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cli,
  readJsonl,
  readManifest,
  SECRET_KEY,
  startCli,
  tempDir,
  useScriptedServer,
  waitForLines,
} from '../engine/helpers.js';

const fake = useScriptedServer();
const args = (out: string) => [
  'run',
  '--model',
  'openai:gpt-4o',
  '--base-url',
  fake.server.baseUrl('openai'),
  '--out',
  out,
  '--no-cache',
  '--concurrency',
  '2',
  '--splits',
  'holistic',
  '--limit',
  '8',
];
const env = { OPENAI_API_KEY: SECRET_KEY };

describe('stop signals', () => {
  it.each(['SIGHUP', 'SIGQUIT', 'SIGTERM'] as const)(
    '%s: manifest interrupted, scores and report written, exit 130, resumable',
    async (signal) => {
      fake.server.configure({ latencyMs: 150 });
      const out = path.join(tempDir(), 'run');
      const run = startCli(args(out), env);
      await waitForLines(path.join(out, 'judgements.jsonl'), 3);
      if (signal === 'SIGHUP') {
        run.child.stdout!.destroy();
        run.child.stderr!.destroy();
      }
      run.child.kill(signal);
      const result = await run.result;
      expect(result.signal).toBeNull();
      expect(result.code).toBe(130);
      if (signal !== 'SIGHUP') expect(result.stderr).toContain(`${signal} received`);
      const manifest = readManifest(out);
      expect(manifest.status).toBe('interrupted');
      const finished = readJsonl(path.join(out, 'judgements.jsonl')).length;
      expect(manifest.counts.judgements.ok).toBe(finished);
      expect(existsSync(path.join(out, 'scores.json'))).toBe(true);
      expect(existsSync(path.join(out, 'report.html'))).toBe(true);
      expect(existsSync(path.join(out, '.apb-lock'))).toBe(false);

      fake.server.configure({ latencyMs: 0 });
      const resumed = await cli(args(out), env);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(readManifest(out).status).toBe('complete');
      // --splits holistic is four splits, 8 cases each.
      expect(readJsonl(path.join(out, 'judgements.jsonl'))).toHaveLength(4 * 8);
    },
    60_000,
  );
});
