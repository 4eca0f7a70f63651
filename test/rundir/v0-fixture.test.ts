/**
 * Run directories written by apb before the run-file schemas (test/fixtures/rundirs/v0, see its
 * README) load through `RUN_FILES`: every line and document, migrated where the shape changed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonLines } from '../../src/pipeline/results-store.js';
import { parseRunFileValue, RUN_FILES, type RunFileId } from '../../src/rundir/schemas/index.js';
import { REPO_ROOT } from '../helpers/cli.js';

const V0 = path.join(REPO_ROOT, 'test', 'fixtures', 'rundirs', 'v0');

async function loadLines(id: RunFileId, file: string) {
  const values = [];
  for await (const { line, value } of readJsonLines(file))
    values.push(parseRunFileValue(id, value, { file, line }));
  return values;
}

const loadJson = (id: RunFileId, file: string) =>
  parseRunFileValue(id, JSON.parse(readFileSync(file, 'utf8')), { file, line: 1 });

describe('v0 run directories load through the schemas', () => {
  it.each(['sample-heuristic', 'sample-oracle'])(
    '%s: manifest, predictions, judgements',
    async (name) => {
      const dir = path.join(V0, name);
      expect(readdirSync(dir)).toEqual(
        expect.arrayContaining(['manifest.json', 'predictions.jsonl']),
      );
      const manifest = loadJson('manifest', path.join(dir, RUN_FILES.manifest.file));
      expect(manifest.counts.cases).toBe(7);
      const predictions = await loadLines('predictions', path.join(dir, 'predictions.jsonl'));
      const judgements = await loadLines('judgements', path.join(dir, 'judgements.jsonl'));
      expect(predictions).toHaveLength(7);
      expect(judgements).toHaveLength(7);
      expect(new Set(judgements.map((line) => line.apb.prediction.fingerprint))).toEqual(
        new Set(predictions.map((line) => line.apb.fingerprint)),
      );
      // The dataset fields pass through untouched (the official harness's keys).
      expect(judgements[0]).toHaveProperty('query');
      expect(judgements[0]!.apb.schema_version).toBe(1);
    },
  );

  it('exec replay:gold: the replay manifest and version-0 execution lines, migrated', async () => {
    const dir = path.join(V0, 'exec-retail-gold');
    const manifest = loadJson('replayManifest', path.join(dir, 'manifest.json'));
    expect(manifest.counts.tasks).toBe(2);
    const raw = readFileSync(path.join(dir, 'executions.jsonl'), 'utf8');
    expect(raw).not.toContain('"schema_version"');
    const lines = await loadLines('executions', path.join(dir, 'executions.jsonl'));
    expect(lines.map((line) => [line.task_id, line.mode, line.reward])).toEqual([
      ['0', 'replay', 1],
      ['1', 'replay', 1],
    ]);
    for (const line of lines) {
      expect(line.schema_version).toBe(1);
      expect(line.user_model).toBe('none');
      expect(line.usage.agent.calls).toBe(0);
      expect(line.tool_errors).toBe(
        line.messages.filter((message) => message.role === 'tool' && message.error).length,
      );
      expect(line.steps).toBeGreaterThan(0);
    }
  });
});
