/**
 * `apb data prepare`: downloads the released APB dataset from a Hugging Face dataset repository
 * (data/{split}.jsonl, metadata, and the asset archives, which are then extracted into place).
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApbError } from '../errors.js';
import { redact } from '../redact.js';
import { extractTar } from './tar.js';

/** The released dataset's repository (its name has a double "b"). */
export const APB_DATASET_REPO = 'Mikivis/AgentPlanningbBenchmark';

export interface PrepareOptions {
  out: string;
  repo: string;
  revision: string;
  /** Hub endpoint (HF_ENDPOINT), e.g. https://huggingface.co or a mirror. */
  endpoint: string;
  /** HF_TOKEN, for gated or private copies. */
  token?: string;
  fetch?: typeof globalThis.fetch;
  onProgress?: (message: string) => void;
}

interface TreeEntry {
  type: string;
  path: string;
  size?: number;
}

/** Which files of the repository make the released layout. */
export function wantedFile(file: string): boolean {
  return /^data\/[^/]+\.jsonl$/.test(file) || /^metadata\/[^/]+$/.test(file) || /^assets_archives\/[^/]+\.tar$/.test(file);
}

function failure(response: Response, what: string): ApbError {
  const hint = response.status === 401 || response.status === 403 ? ' (set HF_TOKEN if the dataset is gated)' : response.status === 404 ? ' (check --repo and --revision)' : '';
  return new ApbError('download', `${what}: HTTP ${response.status} ${response.statusText}${hint}`);
}

async function request(url: string, options: PrepareOptions): Promise<Response> {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  try {
    return await (options.fetch ?? fetch)(url, { headers, redirect: 'follow' });
  } catch (error) {
    throw new ApbError('download', `cannot reach ${new URL(url).origin}: ${redact((error as Error).message, options.token ? [options.token] : [])}`);
  }
}

/** Lists the repository's files (following the hub's pagination). */
async function listFiles(options: PrepareOptions): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  let url: string | null = `${options.endpoint}/api/datasets/${options.repo}/tree/${encodeURIComponent(options.revision)}?recursive=true`;
  while (url) {
    const response = await request(url, options);
    if (!response.ok) throw failure(response, `listing ${options.repo}@${options.revision}`);
    entries.push(...((await response.json()) as TreeEntry[]));
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '');
    url = next ? new URL(next[1]!, options.endpoint).toString() : null;
  }
  return entries;
}

/** Downloads one file to `target` through a temporary name; an existing file of the right size is kept. */
async function download(entry: TreeEntry, target: string, options: PrepareOptions): Promise<boolean> {
  if (existsSync(target) && entry.size !== undefined && statSync(target).size === entry.size) return false;
  const url = `${options.endpoint}/datasets/${options.repo}/resolve/${encodeURIComponent(options.revision)}/${entry.path.split('/').map(encodeURIComponent).join('/')}`;
  const response = await request(url, options);
  if (!response.ok || !response.body) throw failure(response, `downloading ${entry.path}`);
  mkdirSync(path.dirname(target), { recursive: true });
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(`${target}.part`));
  renameSync(`${target}.part`, target);
  return true;
}

/** Downloads the released layout into `options.out` and extracts the asset archives there. */
export async function prepareDataset(options: PrepareOptions): Promise<{ downloaded: number; kept: number; extracted: number; skipped: string[] }> {
  const say = options.onProgress ?? (() => {});
  const files = (await listFiles(options)).filter((entry) => entry.type === 'file' && wantedFile(entry.path));
  if (!files.some((entry) => entry.path.startsWith('data/'))) throw new ApbError('download', `${options.repo}@${options.revision} has no data/*.jsonl files`);
  let downloaded = 0;
  let kept = 0;
  for (const entry of files) {
    const fresh = await download(entry, path.join(options.out, entry.path), options);
    if (fresh) downloaded += 1;
    else kept += 1;
    say(`${fresh ? 'downloaded' : 'kept'} ${entry.path}`);
  }
  let extracted = 0;
  const skipped: string[] = [];
  for (const entry of files.filter((file) => file.path.endsWith('.tar'))) {
    const result = await extractTar(path.join(options.out, entry.path), options.out);
    extracted += result.files;
    skipped.push(...result.skipped.map((reason) => `${entry.path}: ${reason}`));
    say(`extracted ${result.files} file(s) from ${entry.path}`);
  }
  return { downloaded, kept, extracted, skipped };
}
