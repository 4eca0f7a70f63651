/**
 * The largest image and the largest other file a dataset's cases attach, with their real sizes,
 * beside the caps (`apb data validate` prints them, so a dataset near a cap is seen before a run).
 */
import type { CaseFile } from './case.js';
import { DEFAULT_LIMITS, formatBytes, LIMIT_VARIABLES, type Limits } from '../limits.js';

/** A running record of the largest attached files, shown beside the caps in `limits`. */
export class LargestFiles {
  private image: CaseFile | null = null;
  private other: CaseFile | null = null;
  private readonly seen = new Set<string>();
  private totalBytes = 0;

  constructor(private readonly limits: Limits = DEFAULT_LIMITS) {}

  /** Adds one case's files (each distinct file counted once). */
  add(files: readonly CaseFile[]): void {
    for (const file of files) {
      if (this.seen.has(file.absolutePath)) continue;
      this.seen.add(file.absolutePath);
      this.totalBytes += file.bytes;
      if (file.kind === 'image') {
        if (!this.image || file.bytes > this.image.bytes) this.image = file;
      } else if (!this.other || file.bytes > this.other.bytes) this.other = file;
    }
  }

  /** One line per kind, or none when the cases attach nothing. */
  lines(): string[] {
    if (this.seen.size === 0) return [];
    const lines = [`${this.seen.size} attached file(s), ${formatBytes(this.totalBytes)} in all`];
    if (this.image) {
      const pixels =
        this.image.width && this.image.height
          ? `, ${this.image.width}×${this.image.height} px`
          : '';
      lines.push(
        `largest image ${this.image.path}: ${formatBytes(this.image.bytes)}${pixels} (cap ${formatBytes(this.limits.imageBytes)}, ${LIMIT_VARIABLES.imageBytes})`,
      );
    }
    if (this.other)
      lines.push(
        `largest other file ${this.other.path}: ${formatBytes(this.other.bytes)} (cap ${formatBytes(this.limits.fileBytes)}, ${LIMIT_VARIABLES.fileBytes})`,
      );
    return lines;
  }
}
