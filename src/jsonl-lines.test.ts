import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLineAt, readLines, type NumberedLine } from './jsonl-lines.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'apb-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function linesOf(content: string | Buffer): Promise<NumberedLine[]> {
  const file = path.join(dir, `f-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, content);
  const out: NumberedLine[] = [];
  for await (const line of readLines(file)) out.push(line);
  return out;
}

describe('readLines', () => {
  it('numbers lines from 1, skips blank ones, strips a BOM and CRLF, keeps a last line without newline', async () => {
    expect(await linesOf('\uFEFF{"a":1}\r\n\r\n  \n{"b":2}\n{"c":3}')).toEqual([
      { line: 1, text: '{"a":1}', offset: 0, bytes: 11 },
      { line: 4, text: '{"b":2}', offset: 17, bytes: 7 },
      { line: 5, text: '{"c":3}', offset: 25, bytes: 7 },
    ]);
  });

  it('returns nothing for an empty file', async () => {
    expect(await linesOf('')).toEqual([]);
  });

  it('decodes UTF-8 by line, also when a character straddles the boundary between two reads', async () => {
    // 1 MiB is a multiple of the read size, and the 3-byte character starts one byte before it.
    const first = 'x'.repeat((1 << 20) - 1) + '€';
    const lines = await linesOf(`${first}\nplain ascii\nnaïve\n`);
    expect(lines.map((line) => line.text)).toEqual([first, 'plain ascii', 'naïve']);
  });

  it('reads a line spread over many reads whole', async () => {
    const long = `{"text":"${'é'.repeat(1_500_000)}"}`;
    const lines = await linesOf(`{"short":true}\n${long}\n{"after":1}\n`);
    expect(lines.map((line) => line.text.length)).toEqual([14, long.length, 11]);
    expect(JSON.parse(lines[1]!.text).text).toHaveLength(1_500_000);
  });

  it('gives the same strings as decoding the whole file', async () => {
    const content = Array.from({ length: 3000 }, (_, index) =>
      JSON.stringify({ id: index, q: index % 7 === 0 ? `café ${index} ✓` : `plain ${index}` }),
    ).join('\n');
    const lines = await linesOf(content);
    expect(lines.map((line) => line.text)).toEqual(content.split('\n'));
  });

  it('reports invalid UTF-8 as replacement characters, like a utf8 stream', async () => {
    const lines = await linesOf(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    expect(lines).toEqual([{ line: 1, text: '{\uFFFD}', offset: 0, bytes: 3 }]);
  });

  it("gives each line's byte position, so readLineAt reads the same text again", async () => {
    const content = `\uFEFF{"a":"é"}\r\n\n${'x'.repeat(300_000)}€\n  {"z": "naïve ✓"}  \n{"last":1}`;
    const file = path.join(dir, 'positions.jsonl');
    writeFileSync(file, content);
    const lines: NumberedLine[] = [];
    for await (const line of readLines(file)) lines.push(line);
    const fd = openSync(file, 'r');
    try {
      expect(lines.map((line) => readLineAt(fd, line.offset, line.bytes))).toEqual(
        lines.map((line) => line.text),
      );
    } finally {
      closeSync(fd);
    }
    expect(lines).toHaveLength(4);
  });
});

describe('readLines with maxLineBytes', () => {
  it('yields an overlong line as its head, flagged, and reads the lines around it whole', async () => {
    const file = path.join(dir, 'overlong.jsonl');
    const long = `{"custom_id":"k2","pad":"${'x'.repeat(600_000)}"}`;
    writeFileSync(file, `{"a":1}\n${long}\n{"b":2}\n${'y'.repeat(300_000)}`);
    const out: NumberedLine[] = [];
    for await (const line of readLines(file, undefined, { maxLineBytes: 100_000 })) out.push(line);
    expect(out.map((line) => [line.line, line.overlong ?? false, line.text.length])).toEqual([
      [1, false, 7],
      [2, true, 4096],
      [3, false, 7],
      [4, true, 4096],
    ]);
    expect(out[1]!.text.startsWith('{"custom_id":"k2"')).toBe(true);
    expect(out[1]!.bytes).toBe(long.length);
    expect(out[2]!.offset).toBe(8 + long.length + 1);
  });
});

describe('readLines without maxLineBytes', () => {
  it('refuses a line over the lineBytes cap as an input error naming file and line, holding no more than the cap', async () => {
    const file = path.join(dir, 'huge-line.jsonl');
    writeFileSync(file, `{"a":1}\n{"b":"${'x'.repeat(300_000)}"}\n{"c":3}\n`);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const line of readLines(file, undefined, { lineBytes: 100_000 }))
          seen.push(line.line);
      })(),
    ).rejects.toThrow(
      `${file}:2: (line): 300008 bytes, over the 97.7 KiB cap on one line (APB_MAX_LINE_BYTES)`,
    );
    expect(seen).toEqual([1]);
  });

  it('two reads in flight at once each keep their own cap', async () => {
    const file = path.join(dir, 'mid-line.jsonl');
    writeFileSync(file, `{"a":1}\n{"b":"${'x'.repeat(50_000)}"}\n{"c":3}\n`);
    const read = async (lineBytes: number) => {
      const seen: number[] = [];
      for await (const line of readLines(file, undefined, { lineBytes })) {
        seen.push(line.line);
        await new Promise((resolve) => setImmediate(resolve)); // let the other read run
      }
      return seen;
    };
    const [strict, loose] = await Promise.allSettled([read(10_000), read(100_000)]);
    expect(strict.status).toBe('rejected');
    expect(String((strict as PromiseRejectedResult).reason)).toContain('over the 9.8 KiB cap');
    expect(loose).toEqual({ status: 'fulfilled', value: [1, 2, 3] });
  });
});
