/** Shared test helpers: requests, image files on disk, and one entry per adapter for the contract suite. */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import type { CaseFile } from '../../src/dataset/case.js';
import type { ProviderId } from '../../src/providers/model-spec.js';
import type { ProviderRequest } from '../../src/providers/provider.js';
import type { Wire } from '../fake-server/index.js';

/** A 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** Bytes that start like a JPEG (the endpoints under test do not decode images). */
export const JPEG_BYTES = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
]);

const folder = mkdtempSync(path.join(tmpdir(), 'apb-providers-'));

/** Writes bytes to a temp file and describes it as a case file. */
export function imageFile(name: string, bytes: Buffer, mimeType: string): CaseFile {
  const absolutePath = path.join(folder, name);
  writeFileSync(absolutePath, bytes);
  return {
    path: name,
    absolutePath,
    kind: 'image',
    mimeType,
    label: 'image',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  };
}

/** A small planner request; override any field. */
export function makeRequest(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 'You are a planner.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'CASE-1: plan how to open the file' }] },
    ],
    promptVersion: 'test@1',
    json: false,
    sampling: { temperature: 0, maxOutputTokens: 256 },
    repeat: 0,
    role: 'planner',
    ...overrides,
  };
}

/** One adapter as the contract suite sees it. */
export interface AdapterCase {
  provider: ProviderId;
  model: string;
  wire: Wire;
  /** The endpoint has a JSON reply mode the adapter should request. */
  json: boolean;
  /** The key as the server received it. */
  sentKey: (headers: IncomingHttpHeaders) => string | undefined;
}

const bearer = (headers: IncomingHttpHeaders) => headers.authorization?.replace(/^Bearer /, '');

export const ADAPTER_CASES: AdapterCase[] = [
  { provider: 'openai', model: 'gpt-4o', wire: 'openai', json: true, sentKey: bearer },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    wire: 'anthropic',
    json: false,
    sentKey: (headers) => headers['x-api-key'] as string | undefined,
  },
  {
    provider: 'google',
    model: 'gemini-2.5-flash',
    wire: 'gemini',
    json: true,
    sentKey: (headers) => headers['x-goog-api-key'] as string | undefined,
  },
  {
    provider: 'openai-compatible',
    model: 'Qwen/Qwen3-VL-32B-Instruct',
    wire: 'openai',
    json: true,
    sentKey: bearer,
  },
];

/** A key shaped like a real one, so both the exact-value and the pattern redaction are exercised. */
export const TEST_KEY = 'sk-test-0123456789abcdefSECRET';
