/**
 * Resolution of a case's `files` against the dataset root: containment by real path, existence,
 * kind, size and hash.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { CaseFile } from './case.js';
import { containedFile, readContainedFile } from './contained-file.js';
import { imageSize, type ImageSize } from './image-size.js';
import { DEFAULT_LIMITS, LIMIT_VARIABLES, type Limits } from '../limits.js';

const KIND_BY_EXTENSION: Record<string, { kind: CaseFile['kind']; mimeType: string }> = {
  '.png': { kind: 'image', mimeType: 'image/png' },
  '.jpg': { kind: 'image', mimeType: 'image/jpeg' },
  '.jpeg': { kind: 'image', mimeType: 'image/jpeg' },
  '.gif': { kind: 'image', mimeType: 'image/gif' },
  '.webp': { kind: 'image', mimeType: 'image/webp' },
  '.bmp': { kind: 'image', mimeType: 'image/bmp' },
  '.mp4': { kind: 'video', mimeType: 'video/mp4' },
  '.webm': { kind: 'video', mimeType: 'video/webm' },
  '.mov': { kind: 'video', mimeType: 'video/quicktime' },
  '.txt': { kind: 'text', mimeType: 'text/plain' },
  '.md': { kind: 'text', mimeType: 'text/markdown' },
  '.json': { kind: 'text', mimeType: 'application/json' },
  '.jsonl': { kind: 'text', mimeType: 'application/jsonl' },
  '.csv': { kind: 'text', mimeType: 'text/csv' },
  '.tsv': { kind: 'text', mimeType: 'text/tab-separated-values' },
  '.xml': { kind: 'text', mimeType: 'application/xml' },
  '.html': { kind: 'text', mimeType: 'text/html' },
  '.yaml': { kind: 'text', mimeType: 'application/yaml' },
  '.yml': { kind: 'text', mimeType: 'application/yaml' },
  '.pdf': { kind: 'other', mimeType: 'application/pdf' },
};

/** A file of a case, or the reason it cannot be used. */
export type FileResolution = { ok: true; file: CaseFile } | { ok: false; message: string };

interface CachedFile {
  realPath: string;
  sha256: string;
  bytes: number;
  size?: ImageSize;
  text?: string;
}

const isImagePath = (relativePath: string, label: string | null) => {
  const known = KIND_BY_EXTENSION[path.extname(relativePath).toLowerCase()];
  return known ? known.kind === 'image' : Boolean(label && /image|screenshot|frame/i.test(label));
};

/**
 * Resolves files with a per-path cache, so a policy document shared by 700 cases is read once.
 * Containment is by real path (`contained-file.ts`): a symlink out of the dataset, a device or
 * FIFO, and a file over its size cap (`limits`' image and file caps) are refused as input problems.
 */
export class FileResolver {
  private readonly cache = new Map<string, CachedFile | Error>();

  constructor(
    private readonly root: string,
    readonly limits: Limits = DEFAULT_LIMITS,
  ) {}

  resolve(relativePath: string, label: string | null): FileResolution {
    const image = isImagePath(relativePath, label);
    const cached = this.load(relativePath, image);
    if (cached instanceof Error) return { ok: false, message: cached.message };
    const extension = path.extname(relativePath).toLowerCase();
    const known = KIND_BY_EXTENSION[extension];
    const kind = known?.kind ?? (image ? 'image' : 'other');
    const file: CaseFile = {
      path: relativePath,
      // The real path: what is read later is what was checked here, not wherever a link points then.
      absolutePath: cached.realPath,
      kind,
      mimeType: known?.mimeType ?? 'application/octet-stream',
      label,
      sha256: cached.sha256,
      bytes: cached.bytes,
    };
    if (kind === 'text') file.text = cached.text ?? '';
    if (kind === 'image' && cached.size) Object.assign(file, cached.size);
    return { ok: true, file };
  }

  private load(relativePath: string, image: boolean): CachedFile | Error {
    const key = `${image ? 'image' : 'file'}:${relativePath}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const cap = image ? this.limits.imageBytes : this.limits.fileBytes;
    const found = containedFile(
      this.root,
      relativePath,
      cap,
      image ? LIMIT_VARIABLES.imageBytes : LIMIT_VARIABLES.fileBytes,
    );
    let result: CachedFile | Error;
    if (!found.ok) result = new Error(found.message);
    else {
      try {
        const content = readContainedFile(found.realPath, cap);
        result = {
          realPath: found.realPath,
          sha256: createHash('sha256').update(content).digest('hex'),
          bytes: content.length,
        };
        if (KIND_BY_EXTENSION[path.extname(relativePath).toLowerCase()]?.kind === 'text')
          result.text = content.toString('utf8');
        const size = image ? imageSize(content) : null;
        if (size) result.size = size;
      } catch (error) {
        result = new Error(`file "${relativePath}" cannot be read (${(error as Error).message})`);
      }
    }
    this.cache.set(key, result);
    return result;
  }
}
