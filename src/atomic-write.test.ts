import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createAtomicWriter,
  fileWriteError,
  openAppendNoFollow,
  writeFileAtomic,
} from './atomic-write.js';

const work = () => mkdtempSync(path.join(tmpdir(), 'apb-atomic-'));

describe('writeFileAtomic', () => {
  it('replaces a symlink planted at the target instead of writing through it', () => {
    const dir = work();
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const target = path.join(dir, 'run', 'scores.json');
    mkdirSync(path.dirname(target));
    symlinkSync(victim, target);
    writeFileAtomic(target, '{"ok":true}\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(target).isSymbolicLink()).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('{"ok":true}\n');
  });

  it('ignores a planted `NAME.tmp` link (the temporary name is fresh and opened exclusively)', () => {
    const dir = work();
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, path.join(dir, 'manifest.json.tmp'));
    writeFileAtomic(path.join(dir, 'manifest.json'), '{}');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('leaves the old file whole and no temporary file behind when a write is aborted', () => {
    const dir = work();
    const file = path.join(dir, 'report.md');
    writeFileSync(file, 'old');
    const writer = createAtomicWriter(file);
    writer.write('new, half');
    writer.abort();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['report.md']);
  });

  it('names the file in one line when it cannot write', () => {
    const dir = work();
    mkdirSync(path.join(dir, 'scores.json'));
    expect(() => writeFileAtomic(path.join(dir, 'scores.json'), '{}')).toThrow(
      /^cannot write .*scores\.json: /,
    );
  });
});

describe('fileWriteError', () => {
  it('words a full disk and a read-only file system', () => {
    const fail = (code: string) =>
      fileWriteError('/runs/x/scores.json', Object.assign(new Error(`${code}: raw`), { code }))
        .message;
    expect(fail('ENOSPC')).toBe('cannot write /runs/x/scores.json: no space left on the device');
    expect(fail('EROFS')).toBe('cannot write /runs/x/scores.json: read-only file system');
    expect(fileWriteError('/f', Object.assign(new Error('x'), { code: 'ENOSPC' })).code).toBe(
      'environment',
    );
  });
});

describe('openAppendNoFollow', () => {
  it('refuses to append through a symlink at the name', () => {
    const dir = work();
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, path.join(dir, 'predictions.jsonl'));
    expect(() => openAppendNoFollow(path.join(dir, 'predictions.jsonl'))).toThrow(
      /cannot write .*predictions\.jsonl: it is a symbolic link \(refused\)/,
    );
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(existsSync(victim)).toBe(true);
  });
});
