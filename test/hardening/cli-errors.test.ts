/**
 * Seen 11: "internal error" only for bugs. Bad arguments are one line and exit 2: a value outside
 * an option's fixed set names the option, the value and the allowed values; a command that does
 * not exist exits 2, `--help` included. The first case runs the real launcher; the rest call the
 * CLI's `main` in process (the same code path, without a Node start-up each).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, runMain } from '../helpers/cli.js';

const oneLine = (text: string) => text.trim().split('\n');

describe('bad arguments', () => {
  it('run --protocol offical: one line naming the option, the value and the allowed values; exit 2', async () => {
    const result = await runCli(['run', '--protocol', 'offical', '--dry-run']);
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toEqual([
      "apb: option '--protocol <name>' argument 'offical' is invalid. allowed values: paper, official (did you mean \"official\"?)",
    ]);
  });

  it('a zod-checked bound (--concurrency 5000) is one line naming the flag, not raw zod JSON; exit 2', async () => {
    const result = await runMain(['run', '--concurrency', '5000', '--dry-run']);
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/^apb: (--)?concurrency: .*1024/);
  });

  it('report --format pdf and agreement --format xml are refused with the allowed values', async () => {
    const report = await runMain(['report', '--format', 'pdf', 'x']);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('allowed values: md, csv, json, html');
    const agreement = await runMain(['agreement', 'x', '--human', 'y', '--format', 'xml']);
    expect(agreement.code).toBe(2);
    expect(agreement.stderr).toContain('allowed values: md, json');
  });

  it.each([['refien', '--help'], ['refien'], ['help', 'refien'], ['data', 'bogus']])(
    'an unknown command (%s %s) exits 2 with one line',
    async (...argv) => {
      const result = await runMain(argv.filter(Boolean));
      expect(result.code).toBe(2);
      expect(oneLine(result.stderr)).toHaveLength(1);
      expect(result.stderr).toMatch(/unknown command "(refien|bogus)" \(commands: /);
      expect(result.stdout).toBe('');
    },
  );

  it('--help of a real command still exits 0', async () => {
    const result = await runMain(['run', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--protocol');
  });

  it('a port out of range is a usage error; a port in use is one line', async () => {
    const range = await runMain(['view', 'runs', '--port', '80000']);
    expect(range.code).toBe(2);
    expect(range.stderr.trim()).toBe(
      "apb: option '--port <n>' argument '80000' is invalid. expected a port from 0 (any free port) to 65535, got \"80000\"",
    );
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const taken = (busy.address() as { port: number }).port;
    try {
      const dir = mkdtempSync(path.join(tmpdir(), 'apb-port-'));
      writeFileSync(path.join(dir, 'judgements.jsonl'), '');
      const inUse = await runMain(['view', dir, '--port', String(taken)]);
      expect(inUse.code).toBe(1);
      expect(inUse.stderr.trim()).toBe(
        `apb: cannot listen on 127.0.0.1:${taken}: the port is in use (pick another with --port, or 0 for a free one)`,
      );
    } finally {
      busy.close();
    }
  });
});
