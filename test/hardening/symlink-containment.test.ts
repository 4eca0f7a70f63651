/**
 * Seen 1: nothing leaves through a symlink. A case whose `files` entry links to
 * /proc/self/environ (or to any file outside the dataset) is refused by `validate` and `run`
 * with FILE:LINE: files[i].path; with --skip-invalid the other cases run and the secret (a
 * marker in the environment, and in a file outside the dataset) is in no request the loopback
 * server logged, no run file and no report. A report never embeds an image that became a link out.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, filesUnder, SECRET_KEY, tempDir, useScriptedServer } from '../engine/helpers.js';
import { holisticRecord, writeDataset } from '../helpers/dataset.js';

const fake = useScriptedServer();
const MARKER = 'apb-secret-marker-7f3a9c1e';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function hostileDataset(): { dir: string; outside: string } {
  const dir = writeDataset(
    {
      holistic_planning: [
        JSON.stringify(holisticRecord({ id: 'clean-1' })),
        JSON.stringify(
          holisticRecord({
            id: 'env-1',
            files: [{ path: 'files/policy.md', type: 'policy_document' }],
          }),
        ),
        JSON.stringify(
          holisticRecord({ id: 'chart-1', files: [{ path: 'files/chart.png', type: 'image' }] }),
        ),
        JSON.stringify(
          holisticRecord({
            id: 'fifo-1',
            files: [{ path: 'files/pipe.txt', type: 'policy_document' }],
          }),
        ),
      ],
    },
    { 'files/README.md': 'attachments' },
  );
  const outside = path.join(tempDir(), 'secret.png');
  writeFileSync(outside, Buffer.concat([PNG, Buffer.from(MARKER)]));
  symlinkSync('/proc/self/environ', path.join(dir, 'files', 'policy.md'));
  symlinkSync(outside, path.join(dir, 'files', 'chart.png'));
  execFileSync('mkfifo', [path.join(dir, 'files', 'pipe.txt')]);
  return { dir, outside };
}

const sawMarker = (text: string) =>
  text.includes(MARKER) || text.includes(Buffer.from(MARKER).toString('base64').slice(0, 24));

describe('containment by real path', () => {
  it('validate reports each link out and the FIFO as FILE:LINE: files[i].path (and does not hang on the FIFO)', async () => {
    const { dir } = hostileDataset();
    const result = await cli(['data', 'validate', dir], { APB_TEST_MARKER: MARKER });
    expect(result.code).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toMatch(
      /data\/holistic_planning\.jsonl:2: files\[0\]\.path: file "files\/policy\.md" is a link that leaves the dataset root \(to \/proc\/[^)]*\); refused/,
    );
    expect(output).toMatch(
      /data\/holistic_planning\.jsonl:3: files\[0\]\.path: file "files\/chart\.png" is a link that leaves the dataset root/,
    );
    expect(output).toMatch(
      /data\/holistic_planning\.jsonl:4: files\[0\]\.path: file "files\/pipe\.txt" is not a regular file/,
    );
    expect(sawMarker(output)).toBe(false);
  }, 60_000);

  it('run refuses the input (exit 2, nothing sent); with --skip-invalid the secret is in no request, run file or report', async () => {
    const { dir } = hostileDataset();
    const env = { OPENAI_API_KEY: SECRET_KEY, APB_TEST_MARKER: MARKER };
    const base = [
      'run',
      '--data',
      dir,
      '--model',
      'openai:gpt-4o',
      '--base-url',
      fake.server.baseUrl('openai'),
      '--no-cache',
    ];
    const refused = await cli([...base, '--out', path.join(tempDir(), 'run')], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /holistic_planning\.jsonl:2: files\[0\]\.path: .*leaves the dataset root/,
    );
    expect(fake.server.count()).toBe(0);

    const out = path.join(tempDir(), 'run');
    fake.server.configure({
      respond: () => ({
        text: JSON.stringify({
          plan: 'find, then book',
          tool_chain: [{ name: 'find_flights', parameter_description: { origin: 'LIS' } }],
        }),
      }),
    });
    const skipped = await cli([...base, '--out', out, '--skip-invalid'], env);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(fake.server.count()).toBe(1);
    for (const request of fake.server.requests)
      expect(sawMarker(request.rawBody + JSON.stringify(request.headers))).toBe(false);
    const runFiles = filesUnder(out);
    expect(runFiles.map((file) => path.basename(file))).toEqual(
      expect.arrayContaining(['predictions.jsonl', 'report.html', 'report.md', 'scores.json']),
    );
    for (const file of runFiles) expect(sawMarker(readFileSync(file, 'latin1')), file).toBe(false);
    expect(sawMarker(skipped.stdout + skipped.stderr)).toBe(false);
  }, 60_000);

  it('a report does not embed an image that was swapped for a link out of the dataset after the run', async () => {
    const dir = writeDataset(
      {
        holistic_planning: [
          JSON.stringify(
            holisticRecord({ id: 'chart-1', files: [{ path: 'files/chart.png', type: 'image' }] }),
          ),
        ],
      },
      { 'files/chart.png': PNG },
    );
    const out = path.join(tempDir(), 'run');
    const run = await cli(['run', '--data', dir, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain(PNG.toString('base64'));
    const outside = path.join(tempDir(), 'secret.png');
    writeFileSync(outside, Buffer.concat([PNG, Buffer.from(MARKER)]));
    rmSync(path.join(dir, 'files', 'chart.png'));
    symlinkSync(outside, path.join(dir, 'files', 'chart.png'));
    const report = path.join(tempDir(), 'report.html');
    const result = await cli(['report', out, '--format', 'html', '--out', report]);
    expect(result.code, result.stderr).toBe(0);
    const html = readFileSync(report, 'utf8');
    expect(sawMarker(html)).toBe(false);
    expect(html).not.toContain(Buffer.concat([PNG, Buffer.from(MARKER)]).toString('base64'));
  }, 60_000);
});
