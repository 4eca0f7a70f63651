/**
 * Image bytes for a request, read from disk at send time through a small in-memory cache, with the
 * MIME type checked.
 */
import { createHash } from 'node:crypto';
import { readContainedFile } from '../dataset/contained-file.js';
import { DEFAULT_LIMITS } from '../limits.js';

/** What an image part carries that matters here (a `CaseFile` fits). */
export interface ImageSource {
  absolutePath: string;
  mimeType: string;
  sha256: string;
}

/**
 * An image ready for the SDK: its bytes as base64 (what every wire format carries), with the media
 * type the endpoint must be told. Encoded once per cached image: given bytes, the SDK would encode
 * them again on every request (~35 MB of garbage per run of the 4,209-case benchmark).
 */
export interface ImageData {
  base64: string;
  mediaType: string;
}

const MAX_CACHED_BYTES = 64 * 1024 * 1024;
// Each entry keeps its size, so a caller with a smaller cap than the one that read it is refused.
const cache = new Map<string, { image: ImageData; bytes: number }>();
let cachedBytes = 0;

/**
 * Reads an image of at most `maxBytes` (the image cap, `Limits.imageBytes`; cached by path and
 * hash, least recently used evicted past 64 MB of base64); throws a plain Error naming the file.
 */
export async function readImage(
  source: ImageSource,
  maxBytes: number = DEFAULT_LIMITS.imageBytes,
): Promise<ImageData> {
  const key = `${source.sha256}:${source.absolutePath}`;
  const hit = cache.get(key);
  if (hit && hit.bytes <= maxBytes) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.image;
  }
  // Read again without following a link and within the image cap; the bytes must be those validated.
  const data = readContainedFile(source.absolutePath, maxBytes);
  if (createHash('sha256').update(data).digest('hex') !== source.sha256)
    throw new Error(`image "${source.absolutePath}" changed since the dataset was validated`);
  const mediaType = source.mimeType.startsWith('image/') ? source.mimeType : sniffImageType(data);
  if (!mediaType)
    throw new Error(
      `image "${source.absolutePath}" has type ${source.mimeType} and its bytes are not PNG, JPEG, GIF, WebP or BMP`,
    );
  const image = { base64: data.toString('base64'), mediaType };
  remember(key, image, data.length);
  return image;
}

/** The MIME type told by an image's first bytes, or null. */
export function sniffImageType(data: Uint8Array): string | null {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => data[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    data[8] === 0x57 &&
    data[9] === 0x45 &&
    data[10] === 0x42 &&
    data[11] === 0x50
  )
    return 'image/webp';
  if (starts(0x42, 0x4d)) return 'image/bmp';
  return null;
}

function remember(key: string, image: ImageData, bytes: number): void {
  if (image.base64.length > MAX_CACHED_BYTES) return;
  const replaced = cache.get(key);
  if (replaced) cachedBytes -= replaced.image.base64.length;
  cache.set(key, { image, bytes });
  cachedBytes += image.base64.length;
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= MAX_CACHED_BYTES) break;
    cache.delete(oldKey);
    cachedBytes -= old.image.base64.length;
  }
}
