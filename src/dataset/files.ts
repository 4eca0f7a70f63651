/** Resolution of a case's `files` against the dataset root: containment, existence, kind and hash. */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CaseFile } from './case.js';

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
  sha256: string;
  bytes: number;
  text?: string;
}

/** Resolves files with a per-path cache, so a policy document shared by 700 cases is read once. */
export class FileResolver {
  private readonly cache = new Map<string, CachedFile | Error>();

  constructor(private readonly root: string) {}

  resolve(relativePath: string, label: string | null): FileResolution {
    if (path.isAbsolute(relativePath)) return { ok: false, message: `path "${relativePath}" must be relative to the dataset root` };
    const absolutePath = path.resolve(this.root, relativePath);
    const fromRoot = path.relative(this.root, absolutePath);
    if (fromRoot.startsWith('..') || path.isAbsolute(fromRoot)) {
      return { ok: false, message: `path "${relativePath}" escapes the dataset root` };
    }
    const cached = this.load(absolutePath);
    if (cached instanceof Error) return { ok: false, message: `file "${relativePath}" ${cached.message}` };
    const extension = path.extname(absolutePath).toLowerCase();
    const known = KIND_BY_EXTENSION[extension];
    let kind = known?.kind ?? 'other';
    if (!known && label && /image|screenshot|frame/i.test(label)) kind = 'image';
    const file: CaseFile = {
      path: relativePath,
      absolutePath,
      kind,
      mimeType: known?.mimeType ?? 'application/octet-stream',
      label,
      sha256: cached.sha256,
      bytes: cached.bytes,
    };
    if (kind === 'text') file.text = cached.text ?? '';
    return { ok: true, file };
  }

  private load(absolutePath: string): CachedFile | Error {
    const hit = this.cache.get(absolutePath);
    if (hit) return hit;
    let result: CachedFile | Error;
    try {
      if (!statSync(absolutePath).isFile()) throw new Error('is not a file');
      const content = readFileSync(absolutePath);
      result = { sha256: createHash('sha256').update(content).digest('hex'), bytes: content.length };
      const known = KIND_BY_EXTENSION[path.extname(absolutePath).toLowerCase()];
      if (known?.kind === 'text') result.text = content.toString('utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      result = new Error(code === 'ENOENT' ? 'does not exist' : (error as Error).message);
    }
    this.cache.set(absolutePath, result);
    return result;
  }
}
