/**
 * `apb judge` on the official harness's predictions (issue 26): a .jsonl of its lines — the dataset
 * fields, tested_model and model_response, no apb keys and no manifest.json — is imported into
 * NAME-apb/ beside it (cases read back from --data, the sample by default) and judged; a rerun
 * resumes; a bad line is named FILE:LINE: field, an unknown case by its id, before anything is written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, readJsonl, tempDir } from '../engine/helpers.js';

const FIXTURE = 'test/fixtures/rundirs/v0/sample-oracle/predictions.jsonl';

/** The fixture's answers as official-harness lines: dataset fields, tested_model, model_response. */
function officialLines(): Record<string, unknown>[] {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((text) => {
      const { apb: _apb, ...line } = JSON.parse(text) as Record<string, unknown>;
      return { ...line, tested_model: 'gpt-4o' };
    });
}

const write = (file: string, lines: Record<string, unknown>[]) =>
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));

describe('apb judge on official predictions without manifest.json', () => {
  it('imports them beside the file, judges them and resumes', async () => {
    const file = path.join(tempDir('apb-judge-official-'), 'gpt-4o_predictions.jsonl');
    const lines = officialLines();
    write(file, lines);
    const first = await cli(['judge', file, '--judge', 'rules']);
    expect(first.code, first.stderr).toBe(0);
    const out = file.replace(/\.jsonl$/, '-apb');
    expect(first.stderr).toContain(`imported into ${out}`);
    const judged = readJsonl(path.join(out, 'judgements.jsonl'));
    expect(judged).toHaveLength(lines.length);
    // The oracle's answers are the references: the structural judge finds every one correct.
    expect(judged.every((line) => line.judgement.is_correct === true)).toBe(true);
    expect(judged.every((line) => line.tested_model === 'gpt-4o')).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.identity).toMatchObject({ tested_model: 'gpt-4o', protocol: 'official' });
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
    const again = await cli(['judge', file, '--judge', 'rules']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`0 judged, ${lines.length} already judged`);
  });

  it('names a bad line by file, line and field, and an unknown case by id, writing nothing', async () => {
    const dir = tempDir('apb-judge-official-bad-');
    const lines = officialLines();
    const bad = path.join(dir, 'bad.jsonl');
    write(bad, [lines[0]!, { ...lines[1]!, model_response: undefined }]);
    const result = await cli(['judge', bad, '--judge', 'rules']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${bad}:2: model_response: expected a string`);
    expect(existsSync(path.join(dir, 'bad-apb'))).toBe(false);
    const unknown = path.join(dir, 'unknown.jsonl');
    write(unknown, [{ ...lines[0]!, id: 'no-such-case' }]);
    const missing = await cli(['judge', unknown, '--judge', 'rules', '--out', path.join(dir, 'o')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('case "no-such-case" is not in the dataset');
    expect(existsSync(path.join(dir, 'o'))).toBe(false);
  });
});
