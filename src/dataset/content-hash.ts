/**
 * The content hash of a dataset selection (a run's identity): sha256 over each selected split file,
 * in split order, as `{split}\n` followed by the file's bytes.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { SplitName } from './case.js';
import { listSplitFiles } from './layout.js';

/**
 * The same hash, fed by a reader that already streams the files (a run's validation pass), so the
 * dataset is not read a second time just to hash it. A file the reader leaves early (`--limit`)
 * makes the digest unavailable: `digest()` is then null and the caller hashes on its own.
 */
export class ContentHasher {
  private readonly hash: Hash = createHash('sha256');
  private complete = true;

  startFile(split: SplitName): void {
    this.hash.update(`${split}\n`);
  }

  update(bytes: Buffer): void {
    this.hash.update(bytes);
  }

  /** The reader stopped before the end of a file. */
  leftEarly(): void {
    this.complete = false;
  }

  digest(): string | null {
    return this.complete ? this.hash.digest('hex') : null;
  }
}

/** Hashes the selected split files by reading them. */
export async function datasetContentHash(
  dir: string,
  splits: readonly SplitName[],
): Promise<string> {
  const hasher = new ContentHasher();
  for (const { split, file } of listSplitFiles(dir)) {
    if (!splits.includes(split)) continue;
    hasher.startFile(split);
    for await (const chunk of createReadStream(file)) hasher.update(chunk as Buffer);
  }
  return hasher.digest() as string;
}
