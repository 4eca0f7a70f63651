import { appendFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { createJsonlStore, dropTornLine, lineText } from './jsonl-store.js';

const tempFile = (name = 'lines.jsonl') =>
  path.join(mkdtempSync(path.join(tmpdir(), 'apb-rundir-')), name);
const Line = z.object({ id: z.string(), n: z.number() });
const collect = async <T>(lines: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const line of lines) out.push(line);
  return out;
};

describe('createJsonlStore', () => {
  it('appends lines that read back through the schema, and feeds every append to its listeners', async () => {
    const file = tempFile();
    const store = createJsonlStore(file, Line);
    const seen: string[] = [];
    store.onAppend((line) => seen.push(line.id));
    store.append({ id: 'a', n: 1 });
    store.append({ id: 'b', n: 2 });
    expect(await collect(store.read())).toEqual([
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
    ]);
    expect(seen).toEqual(['a', 'b']);
    const places = await collect(store.places());
    expect(store.readAt(places[1]!)).toEqual({ id: 'b', n: 2 });
    store.close();
    expect(readFileSync(file, 'utf8')).toBe('{"id":"a","n":1}\n{"id":"b","n":2}\n');
  });

  it('cuts a torn last line on open and keeps the whole lines before it', async () => {
    const file = tempFile();
    writeFileSync(file, '{"id":"a","n":1}\n{"id":"b","n');
    const store = createJsonlStore(file, Line);
    expect(store.tornLineDropped).toBe(true);
    store.append({ id: 'c', n: 3 });
    expect((await collect(store.read())).map((line) => line.id)).toEqual(['a', 'c']);
    store.close();
    expect(dropTornLine(file)).toBe(false);
  });

  it('refuses every damaged line at once, naming file, line and field', async () => {
    const file = tempFile();
    writeFileSync(file, '{"id":"a","n":1}\nnot json\n{"id":"c","n":"three"}\n');
    const store = createJsonlStore(file, Line);
    const error = await collect(store.read()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    const issues = (error as InputError).issues;
    expect(issues.map((issue) => [issue.line, issue.field])).toEqual([
      [2, '(line)'],
      [3, 'n'],
    ]);
    expect(issues[0]!.file).toBe(file);
    store.close();
  });

  it('writes a line over its record as the record text plus the added fields', () => {
    const record = { id: 'x', query: 'q "quoted"' };
    const text = '{"id": "x", "query": "q \\"quoted\\""}';
    const written = lineText({ ...record, verdict: true }, { record, text });
    expect(written).toBe('{"id": "x", "query": "q \\"quoted\\"","verdict":true}');
    expect(JSON.parse(written)).toEqual({ ...record, verdict: true });
    expect(lineText({ ...record, query: 'other' }, { record, text })).toBe(
      JSON.stringify({ ...record, query: 'other' }),
    );
  });

  it('refuses to append through a symlink planted at its name', () => {
    const file = tempFile();
    appendFileSync(`${file}.target`, '');
    symlinkSync(`${file}.target`, file);
    expect(() => createJsonlStore(file, Line)).toThrow(/symbolic link/);
  });
});
