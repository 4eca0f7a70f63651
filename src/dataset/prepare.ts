/**
 * `apb data prepare`: downloads the released APB dataset from a Hugging Face dataset repository
 * (data/{split}.jsonl, metadata, and the asset archives, which are then extracted into place).
 * Every file is checked against the listing before it takes its name: its size, and its sha256
 * (LFS files) or git blob id where the listing gives one; a mismatch removes the `.part` file and
 * stops with the file named. Listing paths must be plain relative paths inside the layout.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createAtomicWriter } from '../atomic-write.js';
import { ApbError } from '../errors.js';
import {
  bodyChunks,
  hubError,
  hubFetch,
  httpFailure,
  listFiles,
  type HubOptions,
  type TreeEntry,
} from './hub.js';
import { extractTar } from './tar.js';

/** The released dataset's repository (its name has a double "b"). */
export const APB_DATASET_REPO = 'Mikivis/AgentPlanningbBenchmark';

/** What `apb data prepare` is asked for. */
export interface PrepareOptions extends HubOptions {
  out: string;
  repo: string;
  revision: string;
  /** Download files the listing gives no size for (otherwise refused: nothing bounds them). */
  allowUnverified?: boolean;
  /** How long the whole download may take (default 6 h). */
  deadlineMs?: number;
  onProgress?: (message: string) => void;
}

const DEFAULT_DEADLINE_MS = 6 * 60 * 60 * 1000;

/** A listing path made only of plain names (no `..`, `.`, empty part, backslash or NUL). */
function plainPath(file: string): boolean {
  return file
    .split('/')
    .every((part) => part !== '' && part !== '.' && part !== '..' && !/[\\\0]/.test(part));
}

/** Which files of the repository make the released layout. */
export function wantedFile(file: string): boolean {
  if (!plainPath(file)) return false;
  return (
    /^data\/[^/]+\.jsonl$/.test(file) ||
    /^metadata\/[^/]+$/.test(file) ||
    /^assets_archives\/[^/]+\.tar$/.test(file)
  );
}

/** How a file must check out: its size and a digest (sha256 of an LFS file, or git's blob sha1). */
interface Expected {
  size: number | undefined;
  digest: { algorithm: 'sha256' | 'git-sha1'; hex: string } | null;
}

function expectedOf(entry: TreeEntry): Expected {
  const size = entry.lfs?.size ?? entry.size;
  if (entry.lfs?.oid && /^[0-9a-f]{64}$/i.test(entry.lfs.oid))
    return { size, digest: { algorithm: 'sha256', hex: entry.lfs.oid.toLowerCase() } };
  if (!entry.lfs && entry.oid && /^[0-9a-f]{40}$/i.test(entry.oid) && size !== undefined)
    return { size, digest: { algorithm: 'git-sha1', hex: entry.oid.toLowerCase() } };
  return { size, digest: null };
}

function hasher(expected: Expected) {
  if (expected.digest?.algorithm === 'git-sha1')
    return createHash('sha1').update(`blob ${expected.size}\0`);
  return createHash('sha256');
}

/** Why bytes do not match what the listing says, or null. */
function mismatch(expected: Expected, bytes: number, hex: string | null): string | null {
  if (expected.size !== undefined && bytes !== expected.size)
    return `got ${bytes} bytes, the listing says ${expected.size}`;
  if (expected.digest && hex !== null && hex !== expected.digest.hex)
    return `its ${expected.digest.algorithm === 'sha256' ? 'sha256' : 'git blob id'} is ${hex}, the listing says ${expected.digest.hex}`;
  return null;
}

/** True when a file already on disk is the listed one (size, and digest where known). */
async function alreadyThere(target: string, expected: Expected): Promise<boolean> {
  if (!existsSync(target) || expected.size === undefined || statSync(target).size !== expected.size)
    return false;
  if (!expected.digest) return true;
  const hash = hasher(expected);
  for await (const chunk of createReadStream(target)) hash.update(chunk as Buffer);
  return hash.digest('hex') === expected.digest.hex;
}

/** Downloads one file through a temporary name, checked against the listing; false when it was already there. */
async function download(
  entry: TreeEntry,
  target: string,
  options: PrepareOptions,
): Promise<boolean> {
  const expected = expectedOf(entry);
  if (await alreadyThere(target, expected)) return false;
  const url = `${options.endpoint}/datasets/${options.repo}/resolve/${encodeURIComponent(options.revision)}/${entry.path.split('/').map(encodeURIComponent).join('/')}`;
  const response = await hubFetch(url, options);
  if (!response.ok) throw httpFailure(response, `downloading ${entry.path}`);
  const writer = createAtomicWriter(target);
  const hash = hasher(expected);
  let bytes = 0;
  try {
    for await (const chunk of bodyChunks(response, `downloading ${entry.path}`, options)) {
      bytes += chunk.length;
      // Never more than the listing promised: a body that runs on is cut off, not written.
      if (expected.size !== undefined && bytes > expected.size)
        throw hubError(
          `downloading ${entry.path}: more than the ${expected.size} bytes the listing says; removed`,
        );
      hash.update(chunk);
      writer.write(chunk);
    }
    const wrong = mismatch(expected, bytes, expected.digest ? hash.digest('hex') : null);
    if (wrong)
      throw hubError(
        `downloading ${entry.path}: ${wrong}; the partial file was removed (rerun to try again)`,
      );
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
  }
  return true;
}

/** The layout's files of a listing; an entry that names a path outside the layout (`..`) stops the download. */
function layoutFiles(entries: TreeEntry[], options: PrepareOptions): TreeEntry[] {
  const files = entries.filter((entry) => entry.type === 'file');
  const unsafe = files.find((entry) => !plainPath(entry.path));
  if (unsafe)
    throw hubError(
      `the listing of ${options.repo}@${options.revision} names "${unsafe.path}", which is not a plain path inside the dataset; refused`,
    );
  const wanted = files.filter((entry) => wantedFile(entry.path));
  // Without a size nothing bounds or checks the body: a hostile or broken mirror could send
  // anything, of any length, under the file's name.
  const sizeless = wanted.find((entry) => expectedOf(entry).size === undefined);
  if (sizeless && !options.allowUnverified)
    throw hubError(
      `the listing of ${options.repo}@${options.revision} gives no size for ${sizeless.path}, ` +
        'so its download could not be checked; refused (--allow-unverified to download it anyway)',
    );
  return wanted;
}

/** Downloads the released layout into `options.out` and extracts the asset archives there. */
export async function prepareDataset(
  options: PrepareOptions,
): Promise<{ downloaded: number; kept: number; extracted: number; skipped: string[] }> {
  const say = options.onProgress ?? (() => {});
  options = {
    ...options,
    deadlineAt: options.deadlineAt ?? Date.now() + (options.deadlineMs ?? DEFAULT_DEADLINE_MS),
  };
  const files = layoutFiles(await listFiles(options), options);
  if (!files.some((entry) => entry.path.startsWith('data/')))
    throw new ApbError('download', `${options.repo}@${options.revision} has no data/*.jsonl files`);
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
    const result = await extractTar(
      path.join(options.out, entry.path),
      options.out,
      options.limits,
    );
    extracted += result.files;
    skipped.push(...result.skipped.map((reason) => `${entry.path}: ${reason}`));
    say(`extracted ${result.files} file(s) from ${entry.path}`);
  }
  return { downloaded, kept, extracted, skipped };
}
