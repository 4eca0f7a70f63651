/**
 * The house dependency rules (STYLE.md rule 3), enforced: a pure core, I/O at the edges, no
 * vendor names in the core, nothing imports the CLI, and no import cycles.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.js';

const SRC = path.join(REPO_ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = sourceFiles(SRC);
const relative = (file: string) => path.relative(SRC, file).split(path.sep).join('/');
const sources = new Map(files.map((file) => [relative(file), readFileSync(file, 'utf8')]));

/** Import specifiers of a file: local ones resolved to src-relative .ts paths, packages as written. */
function importsOf(file: string): { local: string[]; packages: string[] } {
  const text = sources.get(file)!;
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
  const local: string[] = [];
  const packages: string[] = [];
  for (const specifier of specifiers) {
    if (specifier.startsWith('.'))
      local.push(
        path.posix
          .normalize(path.posix.join(path.posix.dirname(file), specifier))
          .replace(/\.js$/, '.ts'),
      );
    else packages.push(specifier);
  }
  return { local, packages };
}

const graph = new Map([...sources.keys()].map((file) => [file, importsOf(file)]));
const isUnder = (file: string, ...folders: string[]) =>
  folders.some((folder) => file.startsWith(folder));

const PURE = [
  'construction/',
  'settings/',
  'judge/checks/',
  'judge/parse-verdict.ts',
  'judge/rubric.ts',
  'judge/prompts/',
  'metrics/',
  'dataset/normalize.ts',
  'dataset/record-schema.ts',
  'dataset/case.ts',
  'dataset/facets.ts',
  'report/',
  'rundir/schemas/',
];
/** The report's I/O edge: loading runs, writing files, and the live viewer. Everything else in report/ renders. */
const REPORT_IO = [
  'report/load-runs.ts',
  'report/write-reports.ts',
  'report/write-exec-reports.ts',
  'report/viewer/server.ts',
  'report/viewer/live-runs.ts',
  'report/viewer/discover.ts',
  'report/viewer/history.ts',
  'report/viewer/exec-history.ts',
  'report/viewer/site.ts',
  'report/viewer/exec-site.ts',
];
const IO_PACKAGES =
  /^(node:)?(fs|fs\/promises|http|https|net|child_process|readline)$|^better-sqlite3$|^ai$|^@ai-sdk\//;
/** The vendors' own SDKs, used only for their batch APIs (providers/batch/). */
const VENDOR_SDKS = ['openai', '@anthropic-ai/sdk', '@google/genai'];
const VENDOR_FILES = [
  'providers/openai.ts',
  'providers/anthropic.ts',
  'providers/google.ts',
  'providers/openai-compatible.ts',
];

/** Construction's I/O edge: reading inputs and writing outputs. Every step module is a pure transform. */
const CONSTRUCTION_IO = [
  'construction/store.ts',
  'construction/output.ts',
  'construction/inputs.ts',
];

/** The folder of a src-relative file (`pipeline/run.ts` → `pipeline`; a top-level file is its own leaf). */
const folderOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : '(top)');

/** Folder → the folders it imports (self-edges and the top-level leaf files left out). */
function folderGraph(files: Map<string, { local: string[] }>): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const [file, { local }] of files) {
    const from = folderOf(file);
    const targets = folders.get(from) ?? new Set<string>();
    for (const target of local) {
      const to = folderOf(target);
      if (to !== from && to !== '(top)') targets.add(to);
    }
    folders.set(from, targets);
  }
  return folders;
}

/** Every elementary folder cycle found by depth-first search, each as `a → b → a`. */
function folderCycles(folders: Map<string, Set<string>>): string[] {
  const cycles = new Set<string>();
  const visit = (node: string, trail: string[]) => {
    for (const next of folders.get(node) ?? []) {
      const at = trail.indexOf(next);
      if (at >= 0) {
        const loop = trail.slice(at);
        // One name per cycle whatever node the search entered it by: rotate to its least folder.
        const start = loop.indexOf([...loop].sort()[0]!);
        const rotated = [...loop.slice(start), ...loop.slice(0, start)];
        cycles.add([...rotated, rotated[0]].join(' → '));
      } else visit(next, [...trail, next]);
    }
  };
  for (const node of folders.keys()) visit(node, [node]);
  return [...cycles].sort();
}

describe('architecture', () => {
  it('keeps the pure core free of I/O, environment, console, clocks and exits', () => {
    const offenders: string[] = [];
    for (const [file, { packages }] of graph) {
      if (!isUnder(file, ...PURE) || REPORT_IO.includes(file) || CONSTRUCTION_IO.includes(file))
        continue;
      for (const name of packages)
        if (IO_PACKAGES.test(name)) offenders.push(`${file} imports ${name}`);
      const text = sources.get(file)!;
      for (const pattern of [
        /process\.env/,
        /console\./,
        /Date\.now\(/,
        /new Date\(\)/,
        /process\.exit/,
      ])
        if (pattern.test(text)) offenders.push(`${file} uses ${pattern.source}`);
    }
    expect(offenders).toEqual([]);
  });

  it('keeps test fixtures (*.fixture.ts, not built into dist/) out of every built module', () => {
    const isFixture = (file: string) => file.endsWith('.fixture.ts');
    const offenders = [...graph].flatMap(([file, { local }]) =>
      isFixture(file) ? [] : local.filter(isFixture).map((target) => `${file} imports ${target}`),
    );
    expect(offenders).toEqual([]);
    expect([...graph.keys()].filter(isFixture).length).toBeGreaterThan(0);
  });

  it('lets nothing outside cli/ import cli/, and exits only from cli/', () => {
    const offenders: string[] = [];
    for (const [file, { local }] of graph) {
      if (file.startsWith('cli/')) continue;
      for (const target of local)
        if (target.startsWith('cli/')) offenders.push(`${file} imports ${target}`);
      if (/process\.exit\(/.test(sources.get(file)!)) offenders.push(`${file} calls process.exit`);
    }
    expect(offenders).toEqual([]);
  });

  it('never names a vendor in the core: only providers/ reaches vendor adapters and SDKs', () => {
    const offenders: string[] = [];
    for (const [file, { local, packages }] of graph) {
      if (file.startsWith('providers/') || file.startsWith('cli/')) continue;
      for (const target of local)
        if (VENDOR_FILES.includes(target)) offenders.push(`${file} imports ${target}`);
      for (const name of packages)
        if (name === 'ai' || name.startsWith('@ai-sdk/') || VENDOR_SDKS.includes(name))
          offenders.push(`${file} imports ${name}`);
    }
    expect(offenders).toEqual([]);
  });

  it('keeps the vendor SDKs inside providers/batch/', () => {
    const offenders = [...graph].flatMap(([file, { packages }]) =>
      file.startsWith('providers/batch/')
        ? []
        : packages
            .filter((name) => VENDOR_SDKS.includes(name))
            .map((name) => `${file} imports ${name}`),
    );
    expect(offenders).toEqual([]);
  });

  it('lets metrics depend only on result types', () => {
    const allowed = [
      'metrics/',
      'dataset/case.ts',
      'judge/verdict.ts',
      'judge/checks/findings.ts',
      'providers/provider.ts',
    ];
    const offenders = [...graph].flatMap(([file, { local }]) =>
      file.startsWith('metrics/')
        ? local
            .filter((target) => !isUnder(target, ...allowed))
            .map((target) => `${file} imports ${target}`)
        : [],
    );
    expect(offenders).toEqual([]);
  });

  it('lets refine/ reach models only through the Provider contract, and never the pipeline, reports or judges', () => {
    const allowed = [
      'refine/',
      'dataset/case.ts',
      'settings/',
      'judge/render-material.ts',
      'providers/provider.ts',
      'errors.ts',
      'redact.ts',
    ];
    const offenders = [...graph].flatMap(([file, { local }]) =>
      file.startsWith('refine/')
        ? local
            .filter((target) => !isUnder(target, ...allowed))
            .map((target) => `${file} imports ${target}`)
        : [],
    );
    expect(offenders).toEqual([]);
    expect([...graph.keys()].some((file) => file.startsWith('refine/'))).toBe(true);
  });

  it('lets serve/ and execution/ reach models only through the Provider contract, and never the CLI or reports', () => {
    const allowed = [
      'serve/',
      'execution/',
      'refine/',
      'settings/',
      'judge/',
      'dataset/',
      'providers/provider.ts',
      'errors.ts',
      'redact.ts',
      'canonical-json.ts',
      'json-span.ts',
      'json-depth.ts',
      'limits.ts',
      'jsonl-lines.ts',
      'atomic-write.ts',
      'version.ts',
      'pipeline/',
      'metrics/',
      'rundir/',
    ];
    const offenders = [...graph].flatMap(([file, { local }]) =>
      isUnder(file, 'serve/', 'execution/')
        ? local
            .filter((target) => !isUnder(target, ...allowed))
            .map((target) => `${file} imports ${target}`)
        : [],
    );
    expect(offenders).toEqual([]);
    expect([...graph.keys()].some((file) => file.startsWith('serve/'))).toBe(true);
  });

  it('lets construction/ reach models only through the Provider contract and environments only through their interface', () => {
    const allowed = [
      'construction/',
      'dataset/',
      'errors.ts',
      'jsonl-lines.ts',
      'version.ts',
      'providers/provider.ts',
      'execution/environment.ts',
      'settings/answer-json.ts',
      'settings/prompt.ts',
      'settings/render.ts',
      'baselines/lexical.ts',
      'json-span.ts',
      'json-depth.ts',
      'limits.ts',
      'atomic-write.ts',
      'rundir/lock.ts',
      'rundir/pool.ts',
    ];
    const offenders = [...graph].flatMap(([file, { local }]) =>
      file.startsWith('construction/')
        ? local
            .filter((target) => !isUnder(target, ...allowed))
            .map((target) => `${file} imports ${target}`)
        : [],
    );
    expect(offenders).toEqual([]);
    expect(
      [...graph.keys()].filter((file) => file.startsWith('construction/')).length,
    ).toBeGreaterThan(10);
  });

  it('keeps rundir/ (the run-directory core) a leaf: it imports only itself and the top-level leaf files', () => {
    const isTopLevel = (target: string) => !target.includes('/');
    const offenders = [...graph].flatMap(([file, { local }]) =>
      file.startsWith('rundir/')
        ? local
            .filter((target) => !target.startsWith('rundir/') && !isTopLevel(target))
            .map((target) => `${file} imports ${target}`)
        : [],
    );
    expect(offenders).toEqual([]);
    expect([...graph.keys()].filter((file) => file.startsWith('rundir/')).length).toBeGreaterThan(
      3,
    );
  });

  it('finds a folder cycle when one is planted (the check can fail)', () => {
    const planted = new Map(graph);
    planted.set('rundir/planted.ts', { local: ['pipeline/run.ts'], packages: [] });
    const cycles = folderCycles(folderGraph(planted));
    expect(cycles.some((cycle) => cycle.includes('rundir') && cycle.includes('pipeline'))).toBe(
      true,
    );
    const tiny = new Map([
      ['a/x.ts', { local: ['b/y.ts'] }],
      ['b/y.ts', { local: ['c/z.ts'] }],
      ['c/z.ts', { local: ['a/x.ts'] }],
    ]);
    expect(folderCycles(folderGraph(tiny))).toEqual(['a → b → c → a']);
  });

  it('has no folder cycle', () => {
    expect(folderCycles(folderGraph(graph))).toEqual([]);
  });

  it('keeps pipeline/ off report/ and cli/, and execution/ off pipeline/', () => {
    const offenders = [...graph].flatMap(([file, { local }]) =>
      local
        .filter(
          (target) =>
            (file.startsWith('pipeline/') && isUnder(target, 'report/', 'cli/')) ||
            (file.startsWith('execution/') && target.startsWith('pipeline/')),
        )
        .map((target) => `${file} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the run core off the vendor batch clients: only the batch interface (types) is named', () => {
    const offenders = [...graph].flatMap(([file, { local }]) =>
      isUnder(file, 'rundir/', 'pipeline/')
        ? local
            .filter((target) => target.startsWith('providers/batch/'))
            .filter(
              (target) =>
                !/import type[^;]*from ['"][^'"]*batch\/batcher\.js['"]/.test(sources.get(file)!),
            )
            .map((target) => `${file} imports ${target}`)
        : [],
    );
    expect(offenders).toEqual([]);
  });

  it('lets only cli/ and src/index.ts import engine/ (the command-level orchestration on top)', () => {
    const offenders = [...graph].flatMap(([file, { local }]) =>
      isUnder(file, 'cli/', 'engine/') || file === 'index.ts'
        ? []
        : local
            .filter((target) => target.startsWith('engine/'))
            .map((target) => `${file} imports ${target}`),
    );
    expect(offenders).toEqual([]);
    expect([...graph.keys()].filter((file) => file.startsWith('engine/')).length).toBeGreaterThan(
      5,
    );
  });

  it('keeps rundir/schemas/ a leaf: zod and the shared top-level files only', () => {
    const offenders = [...graph].flatMap(([file, { local, packages }]) =>
      file.startsWith('rundir/schemas/')
        ? [
            ...local.filter(
              (target) => !target.startsWith('rundir/schemas/') && target.includes('/'),
            ),
            ...packages.filter((name) => name !== 'zod'),
          ].map((target) => `${file} imports ${target}`)
        : [],
    );
    expect(offenders).toEqual([]);
    expect([...graph.keys()].some((file) => file.startsWith('rundir/schemas/'))).toBe(true);
  });

  it('has no import cycle', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const target of graph.get(file)?.local ?? [])
        if (graph.has(target)) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
