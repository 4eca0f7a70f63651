/**
 * Config files as untrusted input (issue 24): `--config /dev/zero`, a FIFO, an oversized file and a
 * YAML billion-laughs each give one line naming the file, at once, for `run` and `construct pipeline`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunConfig } from '../../src/cli/config-file.js';
import { readPipelineConfig } from '../../src/cli/construct-pipeline.js';
import { ApbError } from '../../src/errors.js';

const dir = mkdtempSync(path.join(tmpdir(), 'apb-config-bounds-'));
const laughs = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'
    .split('')
    .map(
      (name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[index]}`).join(',')}]`,
    ),
].join('\n');

/** The error a reader throws, with its message and how long it took. */
function refusal(read: () => unknown): { error: unknown; ms: number } {
  const started = performance.now();
  try {
    read();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error('the reader accepted the file');
}

describe.each([
  ['run', readRunConfig],
  ['construct pipeline', readPipelineConfig],
] as const)('--config of %s', (_name, read) => {
  it('/dev/zero is refused at once as not a regular file', () => {
    const { error, ms } = refusal(() => read('/dev/zero'));
    expect(error).toBeInstanceOf(ApbError);
    expect((error as Error).message).toBe('--config /dev/zero: not a regular file');
    expect(ms).toBeLessThan(1_000);
  });

  it('a FIFO is refused without waiting for a writer', () => {
    const fifo = path.join(dir, `fifo-${_name.replace(' ', '-')}`);
    execFileSync('mkfifo', [fifo]);
    const { error } = refusal(() => read(fifo));
    expect((error as Error).message).toBe(`--config ${fifo}: not a regular file`);
  });

  it('a file over 1 MiB is refused, naming the cap', () => {
    const big = path.join(dir, `big-${_name.replace(' ', '-')}.yaml`);
    writeFileSync(big, `# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    expect((refusal(() => read(big)).error as Error).message).toMatch(
      /^--config .*big-.*\.yaml: 2097155 bytes, over the 1048576-byte cap on a config file$/,
    );
  });

  it('a YAML billion-laughs is one input error naming the file, not "internal error"', () => {
    const file = path.join(dir, `laughs-${_name.replace(' ', '-')}.yaml`);
    writeFileSync(file, `${laughs}\n`);
    const { error, ms } = refusal(() => read(file));
    expect(error).toBeInstanceOf(ApbError);
    expect((error as Error).message).toContain(`${file}:1: (file): YAML aliases expand past 100`);
    expect(ms).toBeLessThan(2_000);
  });
});
