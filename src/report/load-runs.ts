/**
 * Reading run directories for reports (I/O): judgements.jsonl through the shared reader, the
 * manifest when there is one (a bare official-harness judgements.jsonl is valid input), the
 * paper's tables, and the case images as size-capped data: URLs confined to the dataset root.
 */
import type { Limits } from '../limits.js';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { containedFile, readContainedFile, type Containment } from '../dataset/contained-file.js';
import { resolveDatasetDir } from '../dataset/read-cases.js';
import { ApbError, InputError, UsageError } from '../errors.js';
import type { JudgeSections } from '../pipeline/judge-sections.js';
import { readManifest, type Manifest } from '../pipeline/manifest.js';
import { readLineAt } from '../jsonl-lines.js';
import type { ResultRow } from '../metrics/result-row.js';
import { readResultRows } from '../pipeline/result-rows.js';
import { filesOf } from './case-details.js';
import { mediaKey, QUERY_HEAD, type LineWithRow, type MediaItem } from './cases.js';
import { PaperTablesSchema, type PaperTables } from './paper.js';
import type { ReportRunInput } from './report-data.js';

/** Where `--compare-paper` reads the paper's tables (shipped in the package's data/). */
export const PAPER_TABLES_FILE = fileURLToPath(
  new URL('../../data/paper-tables.json', import.meta.url),
);

/** Largest image embedded (bytes), and the total budget of embedded images per report. */
export const MEDIA_LIMITS = { perFile: 2 * 1024 * 1024, total: 48 * 1024 * 1024 };

/** The judgements file of a run argument: `DIR/judgements.jsonl`, or a `.jsonl` file given directly. */
export function judgementsFileOf(target: string): string {
  if (!existsSync(target)) throw new UsageError(`run directory not found: ${target}`);
  if (statSync(target).isFile()) return target;
  const file = path.join(target, 'judgements.jsonl');
  if (!existsSync(file))
    throw new UsageError(
      `${target} has no judgements.jsonl (expected a run directory written by apb run, or by the official harness)`,
    );
  return file;
}

function manifestOf(dir: string, limits: Limits | undefined): Manifest | null {
  try {
    return readManifest(dir, limits);
  } catch (error) {
    throw new ApbError(
      'input',
      `${path.join(dir, 'manifest.json')}: unreadable manifest (${(error as Error).message})`,
    );
  }
}

/**
 * A judgement line kept as its place in the file: the row stays in memory, the line is read again
 * (and parsed) each time `line` is asked for, so a report of any size holds no run's lines.
 */
class StoredLine implements LineWithRow {
  constructor(
    readonly row: ResultRow,
    private readonly file: LineFile,
    private readonly offset: number,
    private readonly bytes: number,
    readonly queryHead: string,
  ) {}

  get line(): Record<string, unknown> {
    return JSON.parse(readLineAt(this.file.fd(), this.offset, this.bytes)) as Record<
      string,
      unknown
    >;
  }
}

/** Closes a judgements file's descriptor once no line of it can be read any more. */
const closeWhenUnused = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/** One open descriptor per judgements file read lazily, opened at the first read. */
class LineFile {
  private descriptor: number | null = null;

  constructor(readonly path: string) {}

  fd(): number {
    if (this.descriptor === null) {
      this.descriptor = openSync(this.path, 'r');
      closeWhenUnused.register(this, this.descriptor);
    }
    return this.descriptor;
  }
}

/** One run as the report builder wants it; `lines` (read lazily) only when the HTML case browser needs them. Bad lines throw unless `lenient`. */
export async function loadRun(
  target: string,
  options: { lines?: boolean; lenient?: boolean; limits?: Limits | undefined } = {},
): Promise<ReportRunInput> {
  const file = judgementsFileOf(target);
  const dir = statSync(target).isFile() ? path.dirname(target) : target;
  const manifest = manifestOf(dir, options.limits);
  const lines: LineWithRow[] = [];
  const mediaPaths = new Set<string>();
  const source = new LineFile(file);
  const onRow = (
    row: ResultRow,
    line: Record<string, unknown>,
    at: { offset: number; bytes: number },
  ) => {
    lines.push(
      new StoredLine(
        row,
        source,
        at.offset,
        at.bytes,
        String(line.query ?? '').slice(0, QUERY_HEAD),
      ),
    );
    for (const entry of filesOf(line)) mediaPaths.add(entry.path);
  };
  const read = await readResultRows(file, {
    ...(options.lines ? { onRow } : {}),
    limits: options.limits,
  });
  if (read.issues.length > 0 && !options.lenient) throw new InputError(read.issues);
  const judgeSections = judgeSectionsOf(dir, file);
  const base = {
    dir: target,
    manifest,
    ...(judgeSections ? { judgeSections } : {}),
    issues: read.issues,
    tornLastLine: read.tornLastLine,
  };
  return options.lines
    ? { ...base, rows: [], lines, mediaPaths: [...mediaPaths] }
    : { ...base, rows: read.rows };
}

/**
 * The judge sections (agreement, contradictions) of the run's scores.json, when it is at least as
 * new as the judgements it was computed from; a stale or missing scores.json gives none.
 */
function judgeSectionsOf(dir: string, judgementsFile: string): JudgeSections | null {
  const scoresFile = path.join(dir, 'scores.json');
  if (!existsSync(scoresFile) || statSync(scoresFile).mtimeMs < statSync(judgementsFile).mtimeMs)
    return null;
  try {
    const scores = JSON.parse(readFileSync(scoresFile, 'utf8')) as JudgeSections;
    const sections: JudgeSections = {};
    if (scores.agreement) sections.agreement = scores.agreement;
    if (scores.contradictions) sections.contradictions = scores.contradictions;
    return sections.agreement || sections.contradictions ? sections : null;
  } catch {
    return null;
  }
}

/** Reads and validates data/paper-tables.json. */
export function readPaperTables(file: string = PAPER_TABLES_FILE): PaperTables {
  if (!existsSync(file))
    throw new UsageError(`--compare-paper needs the paper's tables at ${file}, which is missing`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError([
      { file, line: 1, field: '(file)', message: `invalid JSON: ${(error as Error).message}` },
    ]);
  }
  const parsed = PaperTablesSchema.safeParse(json);
  if (!parsed.success)
    throw new InputError(
      parsed.error.issues.map((issue) => ({
        file,
        line: 1,
        field: issue.path.join('.') || '(file)',
        message: issue.message,
      })),
    );
  return parsed.data;
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
};

function datasetRootOf(run: ReportRunInput): string | null {
  const datasetPath = run.manifest?.dataset?.path;
  if (!datasetPath) return null;
  try {
    return resolveDatasetDir(datasetPath);
  } catch {
    return null;
  }
}

/** Reads every image the runs' cases reference, within the size caps, as data: URLs keyed by `mediaKey(run, path)`. */
export function collectMedia(
  runs: readonly ReportRunInput[],
  limits = MEDIA_LIMITS,
): Map<string, MediaItem> {
  const media = new Map<string, MediaItem>();
  let budget = limits.total;
  runs.forEach((run, runIndex) => {
    const root = datasetRootOf(run);
    const paths = run.mediaPaths ?? [
      ...new Set((run.lines ?? []).flatMap(({ line }) => filesOf(line).map((file) => file.path))),
    ];
    for (const relative of paths) {
      const item = readMedia(root, relative, limits.perFile, budget);
      media.set(mediaKey(runIndex, relative), item);
      budget -= item.dataUrl?.length ?? 0;
    }
  });
  return media;
}

function mediaRefusal(
  found: Extract<Containment, { ok: false }>,
  relative: string,
  perFile: number,
): string {
  if (found.reason === 'outside') return 'the path leaves the dataset directory';
  if (found.reason === 'missing') return `${relative} was not found in the dataset`;
  if (found.reason === 'too-big')
    return `${((found.bytes ?? 0) / 1048576).toFixed(1)} MB is over the ${(perFile / 1048576).toFixed(0)} MB cap`;
  return found.message;
}

function readMedia(
  root: string | null,
  relative: string,
  perFile: number,
  budget: number,
): MediaItem {
  const type = IMAGE_TYPES[path.extname(relative).toLowerCase()];
  if (!type) return { dataUrl: null, note: 'not an image: shown by path only' };
  if (!root)
    return {
      dataUrl: null,
      note: 'not embedded: the run does not name a reachable dataset directory',
    };
  // By real path, like the run: a symlink out of the dataset (or to a device) is never embedded.
  const found = containedFile(root, relative, perFile, "the report's per-image cap");
  if (!found.ok)
    return { dataUrl: null, note: `not embedded: ${mediaRefusal(found, relative, perFile)}` };
  if (found.bytes * 1.34 > budget)
    return { dataUrl: null, note: "not embedded: the report's image budget is used up" };
  try {
    return {
      dataUrl: `data:${type};base64,${readContainedFile(found.realPath, perFile).toString('base64')}`,
      note: null,
    };
  } catch (error) {
    return { dataUrl: null, note: `not embedded: ${(error as Error).message}` };
  }
}
