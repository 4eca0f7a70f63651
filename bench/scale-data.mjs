// The scale benchmark's dataset: test/fixtures/datasets/tau2-bench-apb (769 real cases) repeated
// `times` times, every copy with its own id (`<id>~<copy>`), written in the released layout with
// the fixture's assets. Generated at benchmark time, never committed.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TAU2 = path.join(ROOT, 'test', 'fixtures', 'datasets', 'tau2-bench-apb');

/** Writes the dataset into `dir` (`times` copies of every case); returns its case count and bytes. */
export function writeScaleDataset(dir, times) {
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  for (const entry of readdirSync(TAU2))
    if (entry !== 'data' && !existsSync(path.join(dir, entry)))
      cpSync(path.join(TAU2, entry), path.join(dir, entry), { recursive: true });
  let cases = 0;
  let bytes = 0;
  for (const name of readdirSync(path.join(TAU2, 'data')).filter((file) =>
    file.endsWith('.jsonl'),
  )) {
    const lines = readFileSync(path.join(TAU2, 'data', name), 'utf8')
      .split('\n')
      .filter(Boolean);
    const out = [];
    for (let copy = 0; copy < times; copy += 1) {
      for (const line of lines) {
        const record = JSON.parse(line);
        if (times > 1) record.id = `${record.id}~${copy}`;
        out.push(JSON.stringify(record));
      }
    }
    const text = `${out.join('\n')}\n`;
    writeFileSync(path.join(dir, 'data', name), text);
    cases += out.length;
    bytes += Buffer.byteLength(text);
  }
  return { dir, cases, bytes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.log(JSON.stringify(writeScaleDataset(process.argv[2], Number(process.argv[3] ?? 20))));
}
