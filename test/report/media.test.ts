/** Case images for the HTML report: embedded as data: URLs within caps, never from outside the dataset root. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/pipeline/manifest.js';
import { mediaKey } from '../../src/report/cases.js';
import { fakeApbLine } from '../../src/report/fake-lines.fixture.js';
import { rowFromJudgementLine } from '../../src/pipeline/result-rows.js';
import { collectMedia } from '../../src/report/load-runs.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('collectMedia', () => {
  it('embeds images under the caps and explains every file it does not embed', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'apb-media-'));
    mkdirSync(path.join(root, 'data'));
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(path.join(root, 'assets', 'small.png'), PNG);
    writeFileSync(path.join(root, 'assets', 'big.png'), Buffer.alloc(4096));
    writeFileSync(path.join(path.dirname(root), 'outside.png'), PNG);
    const files = [
      'assets/small.png',
      'assets/big.png',
      'assets/missing.png',
      '../outside.png',
      '/etc/hostname.png',
      'assets/notes.md',
    ];
    const line = fakeApbLine({
      split: 'holistic_planning',
      id: 'a',
      files: files.map((file) => ({ path: file, type: 'image' })),
    });
    const manifest = { dataset: { path: root, content_hash: '' } } as unknown as Manifest;
    const media = collectMedia(
      [{ dir: 'run', rows: [], manifest, lines: [{ line, row: rowFromJudgementLine(line) }] }],
      { perFile: 1024, total: 10_000 },
    );
    const of = (file: string) => media.get(mediaKey(0, file))!;
    expect(of('assets/small.png').dataUrl).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(of('assets/big.png').note).toMatch(/over the .* cap/);
    expect(of('assets/missing.png').note).toMatch(/was not found/);
    expect(of('../outside.png').note).toMatch(/leaves the dataset directory/);
    expect(of('/etc/hostname.png').note).toMatch(/leaves the dataset directory/);
    expect(of('assets/notes.md').note).toMatch(/not an image/);
  });

  it('says so when the run names no dataset (an official-harness directory)', () => {
    const line = fakeApbLine({ split: 'holistic_planning', id: 'a', files: ['assets/x.png'] });
    const media = collectMedia([
      { dir: 'run', rows: [], manifest: null, lines: [{ line, row: rowFromJudgementLine(line) }] },
    ]);
    expect(media.get(mediaKey(0, 'assets/x.png'))!.note).toMatch(
      /does not name a reachable dataset/,
    );
  });
});
