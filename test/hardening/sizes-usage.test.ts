/**
 * Seen 8 and 9: sizes are bounded and provider numbers are not trusted. A gzip reply that
 * decompresses past the cap, and a reply body past the cap, are that case's error (not retried,
 * never buffered whole); an image over the image cap is an input problem for validate, the dry run
 * and the run; the dry run sizes images by their pixels; negative usage is clamped to 0 (flagged in
 * the line) and `--max-cost` still stops the run.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cli,
  readJsonl,
  readManifest,
  SECRET_KEY,
  tempDir,
  useScriptedServer,
} from '../engine/helpers.js';
import { holisticRecord, writeDataset } from '../helpers/dataset.js';
import { imageSize, imageTokens } from '../../src/dataset/image-size.js';
import { saneUsage } from '../../src/providers/usage-sanity.js';
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../helpers/cli.js';

const fake = useScriptedServer();
const env = { OPENAI_API_KEY: SECRET_KEY };
const run = (out: string, extra: string[] = []) => [
  'run',
  '--model',
  'openai:gpt-4o',
  '--base-url',
  fake.server.baseUrl('openai'),
  '--out',
  out,
  '--no-cache',
  '--concurrency',
  '1',
  '--splits',
  'holistic_planning',
  ...extra,
];

describe('reply size caps', () => {
  it('a gzip reply that decompresses to 40 MB: that case is an error naming the cap, sent once; the run completes', async () => {
    const bomb = fake.script.cases.find((item) => item.split === 'holistic_planning')!;
    fake.server.configure({
      respond: (request) =>
        fake.script.caseOf(request) === `${bomb.split}/${bomb.id}`
          ? { text: 'a'.repeat(40 * 1024 * 1024), gzip: true }
          : fake.script.respond(request),
    });
    const out = path.join(tempDir(), 'run');
    const result = await cli(run(out, ['--limit', '3']), env);
    expect(result.code, result.stderr).toBe(0);
    const line = readJsonl(path.join(out, 'predictions.jsonl')).find(
      (entry) => entry.id === bomb.id,
    )!;
    expect(line.apb.status).toBe('error');
    expect(line.apb.error.message).toContain(
      'the reply decompresses to more than 16 MiB (the cap, APB_MAX_DECOMPRESSED_BYTES)',
    );
    expect(fake.server.count()).toBe(3);
  }, 60_000);

  it('a reply body over APB_MAX_REPLY_BYTES is an error naming the cap', async () => {
    fake.server.configure({ respond: () => ({ text: 'b'.repeat(300_000) }) });
    const out = path.join(tempDir(), 'run');
    const result = await cli(run(out, ['--limit', '1']), { ...env, APB_MAX_REPLY_BYTES: '100000' });
    expect(result.stderr).not.toContain('internal error');
    expect(readJsonl(path.join(out, 'predictions.jsonl'))[0]!.apb.error.message).toContain(
      'the reply is larger than 97.7 KiB (the cap, APB_MAX_REPLY_BYTES)',
    );
    expect(readManifest(out).counts.predictions.error).toBe(1);
    expect(fake.server.count()).toBe(1);
  }, 60_000);

  it('a bad cap value is a usage error naming the variable', async () => {
    const result = await cli(['run', '--dry-run'], { APB_MAX_IMAGE_BYTES: 'lots' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'apb: APB_MAX_IMAGE_BYTES must be a positive integer, got "lots"',
    );
  });
});

describe('image caps and pixel estimates', () => {
  const png = readFileSync(path.join(REPO_ROOT, 'sample', 'assets', 'mau_chart_2024.png'));

  it('an image over the cap is reported by validate and refused by the dry run with its real size', async () => {
    const dir = writeDataset(
      {
        holistic_planning: [
          JSON.stringify(holisticRecord({ files: [{ path: 'files/chart.png', type: 'image' }] })),
        ],
      },
      { 'files/chart.png': png },
    );
    const capped = { APB_MAX_IMAGE_BYTES: '10000' };
    const validate = await cli(['data', 'validate', dir], capped);
    expect(validate.code).toBe(1);
    expect(validate.stdout + validate.stderr).toContain(
      `holistic_planning.jsonl:1: files[0].path: file "files/chart.png" is 18.5 KiB, over the 9.8 KiB cap (APB_MAX_IMAGE_BYTES)`,
    );
    const dry = await cli(['run', '--dry-run', '--data', dir, '--model', 'openai:gpt-4o'], capped);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain('over the 9.8 KiB cap');
  }, 60_000);

  it('the dry run counts images by their pixels and names the largest', async () => {
    const dry = await cli(['run', '--dry-run', '--model', 'openai:gpt-4o']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /images: 5 distinct, [\d.]+ KiB in all; the largest assets\/invoice_alba_packaging\.png \(36\.1 KiB, 500×340 px, about 258 tokens\)/,
    );
  }, 60_000);

  it("reads PNG, GIF, BMP, JPEG and WebP headers; tokens follow the vendors' formulas", () => {
    expect(imageSize(png)).toEqual({ width: 480, height: 320 });
    const gif = Buffer.from('GIF89a\x20\x03\x58\x02' + '\0'.repeat(8), 'latin1');
    expect(imageSize(gif)).toEqual({ width: 800, height: 600 });
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x04, 0x38,
      0x07, 0x80, 0x03, 0, 0, 0, 0, 0, 0,
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 1920, height: 1080 });
    expect(imageSize(Buffer.from('not an image at all'))).toBeNull();
    // 1920×1080: OpenAI 85 + 170·6 = 1,105; Gemini 258·3·2 = 1,548; Anthropic 1,150,000/750 ≈ 1,534 → the most, 1,548.
    expect(imageTokens({ width: 1920, height: 1080 })).toBe(1548);
    // 480×320: OpenAI 255; Anthropic 153,600/750 = 205; Gemini 258 (one 768 tile).
    expect(imageTokens({ width: 480, height: 320 })).toBe(258);
  });
});

describe('provider numbers are not trusted', () => {
  it('negative usage is clamped to 0 and flagged; cached over input is cut to input', () => {
    expect(
      saneUsage({ inputTokens: -5_000_000_000, outputTokens: 10, cachedInputTokens: 50 }),
    ).toEqual({
      usage: { inputTokens: 0, outputTokens: 10, cachedInputTokens: 0 },
      implausible: true,
      warnings: [
        'the endpoint reported input tokens = -5000000000; counted as 0',
        'the endpoint reported 50 cached input tokens of 0; counted as 0',
      ],
    });
    expect(saneUsage({ inputTokens: 20_000_000, outputTokens: Number.NaN }).warnings).toEqual([
      'the endpoint reported output tokens = NaN; counted as 0',
      'implausible usage: 20000000 input tokens for one call (kept as reported)',
    ]);
  });

  it('an endpoint reporting negative usage: spent never goes below 0 and --max-cost 0.02 stops the run', async () => {
    fake.server.configure({
      respond: (request) => ({
        ...fake.script.respond(request),
        usage: { inputTokens: -2_000_000_000, outputTokens: 500 },
      }),
    });
    const out = path.join(tempDir(), 'run');
    const result = await cli(run(out, ['--max-cost', '0.02']), env);
    expect(result.code, result.stderr).toBe(0);
    const manifest = readManifest(out);
    expect(manifest.status).toBe('stopped-budget');
    expect(manifest.budget.spent_usd).toBeGreaterThan(0);
    expect(manifest.budget.spent_usd).toBeLessThanOrEqual(0.02);
    expect(manifest.usage.planner.cost_usd).toBeGreaterThanOrEqual(0);
    expect(manifest.usage.planner.input_tokens).toBe(0);
    const line = readJsonl(path.join(out, 'predictions.jsonl'))[0]!;
    expect(line.apb.usage.inputTokens).toBe(0);
    expect(line.apb.warnings).toContain(
      'the endpoint reported input tokens = -2000000000; counted as 0',
    );
  }, 60_000);
});
