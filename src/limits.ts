/**
 * The caps on untrusted sizes: how deep untrusted JSON may nest, how big a reply, a decompressed
 * reply, a dataset file and an image may be. Each has a documented default and an environment
 * variable that overrides it (docs/security.md). The caps travel as a value: the CLI reads the
 * overrides once at start (`limitsFromEnv`) and hands the result down through each command's spec;
 * a module that enforces a cap is given it (defaulting to `DEFAULT_LIMITS`) and never reads the
 * environment or any shared state itself.
 */
import { UsageError } from './errors.js';

/** The caps in force. */
export interface Limits {
  /** Nesting levels of untrusted JSON (model and judge replies, dataset fields, listings). */
  jsonDepth: number;
  /** Bytes of a reply body as it arrives on the wire. */
  replyBytes: number;
  /** Bytes of a reply body after gzip/deflate/brotli decoding. */
  decompressedBytes: number;
  /** Bytes of a dataset file that is not an image (its text goes into prompts). */
  fileBytes: number;
  /** Bytes of one image sent to a model or embedded in a report. */
  imageBytes: number;
  /** Bytes of one line of a JSONL file apb reads (datasets, run files): past it, an input error naming the line. */
  lineBytes: number;
}

const MiB = 1024 * 1024;

/** The defaults: far above anything real data needs (the deepest field of the released data nests 9 levels; the checks test answers 200 deep). */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  jsonDepth: 256,
  replyBytes: 16 * MiB,
  decompressedBytes: 16 * MiB,
  fileBytes: 8 * MiB,
  imageBytes: 20 * MiB,
  // A line over ~512 MiB cannot even be a JavaScript string; this one once took 1.8 GB to fail.
  lineBytes: 256 * MiB,
});

/** The variable that overrides each cap. */
export const LIMIT_VARIABLES: Readonly<Record<keyof Limits, string>> = {
  jsonDepth: 'APB_MAX_JSON_DEPTH',
  replyBytes: 'APB_MAX_REPLY_BYTES',
  decompressedBytes: 'APB_MAX_DECOMPRESSED_BYTES',
  fileBytes: 'APB_MAX_FILE_BYTES',
  imageBytes: 'APB_MAX_IMAGE_BYTES',
  lineBytes: 'APB_MAX_LINE_BYTES',
};

/**
 * The caps `env` asks for: each `APB_MAX_*` variable that is set replaces its default, the rest
 * keep theirs. Pure, so each caller (the CLI once at start, a library caller as it likes) holds
 * its own value and two calls with different caps can run side by side in one process. A value
 * that is not a positive integer is a usage error naming the variable.
 */
export function limitsFromEnv(env: Readonly<Record<string, string | undefined>>): Limits {
  const limits: Limits = { ...DEFAULT_LIMITS };
  for (const [key, variable] of Object.entries(LIMIT_VARIABLES) as [keyof Limits, string][]) {
    const raw = env[variable]?.trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new UsageError(`${variable} must be a positive integer, got "${raw}"`);
    limits[key] = value;
  }
  return limits;
}

/** `20971520` → `20 MiB`, for messages that name a cap. */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}
