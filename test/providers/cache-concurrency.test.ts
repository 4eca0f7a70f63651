/** Several processes writing one cache file at once (WAL + busy timeout): nothing lost, no SQLITE_BUSY. */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/providers/cache.js';

const run = promisify(execFile);
const writer = fileURLToPath(new URL('./cache-writer.ts', import.meta.url));

describe('ResponseCache across processes', () => {
  it('keeps every entry when four processes write concurrently', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'apb-cache-mp-')), 'cache.sqlite');
    const writers = [0, 1, 2, 3].map((index) =>
      run(process.execPath, ['--import', 'tsx', writer, file, String(index * 1000), '200'], {
        cwd: process.cwd(),
      }),
    );
    const outputs = await Promise.all(writers);
    for (const output of outputs) expect(JSON.parse(output.stdout)).toEqual({ hits: 199 });
    const cache = ResponseCache.open(file);
    expect(cache.size).toBe(4 * 199 + 1);
    cache.close();
  });
});
