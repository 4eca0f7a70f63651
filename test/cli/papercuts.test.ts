/**
 * Issue 26's papercuts through the real CLI: a misnamed split file is reported, a missing replay
 * file is one line with a did-you-mean, `--fail-under` gates a finished run with exit 3, and
 * `apb view` with no argument opens `runs/` (or says there is none).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

const SAMPLE = path.join(REPO_ROOT, 'sample');
const temp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));

/** A copy of the sample with a misnamed split file beside the real ones. */
function sampleWithStray(): string {
  const dir = path.join(temp('apb-stray-'), 'data-set');
  cpSync(SAMPLE, dir, { recursive: true });
  cpSync(
    path.join(dir, 'data', 'holistic_planning.jsonl'),
    path.join(dir, 'data', 'holistic_planing.jsonl'),
  );
  return dir;
}

describe('files under data/ that are not split files', () => {
  it('data validate warns with a did-you-mean and still exits 0', async () => {
    const dir = sampleWithStray();
    const result = await runCli(['data', 'validate', dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `${path.join(dir, 'data', 'holistic_planing.jsonl')}:0: file: warning: not a split file, so it is not read (did you mean "holistic_planning.jsonl"?)`,
    );
    expect(result.stderr).toContain('1 file(s) under data/ that are not split files');
  });

  it('run says so before it starts', async () => {
    const dir = sampleWithStray();
    const out = path.join(temp('apb-stray-run-'), 'run');
    const result = await runCli([
      'run',
      '--data',
      dir,
      '--splits',
      'holistic_planning',
      '--out',
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('holistic_planing.jsonl:0: file: warning: not a split file');
  });
});

describe('a missing replay file', () => {
  it('is one line naming the file, with a did-you-mean for replay:gold', async () => {
    const result = await runCli([
      'exec',
      '--env',
      'tau2:retail',
      '--agent',
      'replay:gld',
      '--out',
      path.join(temp('apb-gld-'), 'x'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('internal error');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /--agent replay:gld: no file .*gld \(did you mean "replay:gold"\?\)/,
    );
  });
});

describe('--fail-under', () => {
  const run = (gates: string[]) =>
    runCli([
      'run',
      '--model',
      'baseline:oracle',
      '--splits',
      'holistic_planning',
      '--out',
      path.join(temp('apb-gate-'), 'run'),
      ...gates.flatMap((gate) => ['--fail-under', gate]),
    ]);

  it('exits 0 at or above every gate, 3 below one, naming it', async () => {
    const pass = await run(['holistic_cr=100']);
    expect(pass.code, pass.stderr).toBe(0);
    const refuse = await runCli([
      'run',
      '--model',
      'baseline:refuse',
      '--splits',
      'holistic_planning',
      '--out',
      path.join(temp('apb-gate-'), 'run'),
      '--fail-under',
      'holistic_cr=60',
    ]);
    expect(refuse.code).toBe(3);
    expect(refuse.stderr).toMatch(
      /--fail-under: baseline:refuse .*holistic_cr 0\.0 is below 60 \(n=10\)/,
    );
  });

  it('fails a gate on a metric the run does not measure, and refuses a bad gate with exit 2', async () => {
    const absent = await run(['unsolvable_pass=10']);
    expect(absent.code).toBe(3);
    expect(absent.stderr).toContain('unsolvable_pass is not measured by this run');
    const bad = await run(['holistic=50']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown metric "holistic"');
  });
});

describe('apb view with no argument', () => {
  it('says there is no runs/ folder when there is none', async () => {
    const result = await runCli(['view'], { cwd: temp('apb-view-none-') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no runs/ folder here');
  });

  it('opens runs/ of the working directory', async () => {
    const cwd = temp('apb-view-runs-');
    const made = await runCli(['run', '--splits', 'holistic_planning', '--out', 'runs/first'], {
      cwd,
    });
    expect(made.code, made.stderr).toBe(0);
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'apb.js'), 'view'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
          const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(stdout);
          if (match) resolve(match[0]);
        });
        child.on('exit', (code) => reject(new Error(`viewer exited early (${code})`)));
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('first');
    } finally {
      child.kill('SIGINT');
    }
  });
});

describe('apb compare', () => {
  it('compares two real runs case by case, and refuses a directory that is not a judged run', async () => {
    const root = temp('apb-compare-');
    for (const model of ['baseline:heuristic', 'baseline:oracle']) {
      const made = await runCli([
        'run',
        '--model',
        model,
        '--splits',
        'holistic_planning',
        '--out',
        path.join(root, model.split(':')[1]!),
      ]);
      expect(made.code, made.stderr).toBe(0);
    }
    const result = await runCli([
      'compare',
      path.join(root, 'heuristic'),
      path.join(root, 'oracle'),
      '--format',
      'json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const comparison = JSON.parse(result.stdout);
    expect(comparison.overall).toMatchObject({
      shared: 10,
      b_only: 10,
      a_only: 0,
      verdict: 'B ahead',
    });
    expect(comparison.differences).toHaveLength(10);
    const missing = await runCli(['compare', root, path.join(root, 'oracle')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('has no judgements.jsonl');
  });
});

describe('a leaderboard with a failing model', () => {
  it('is written and ranked, with the working model in it, though the command exits 1', async () => {
    const out = path.join(temp('apb-board-fail-'), 'board');
    const result = await runCli(
      [
        'run',
        '--model',
        'baseline:oracle',
        '--model',
        'openai-compatible:dead',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--splits',
        'holistic_planning',
        '--max-retries',
        '0',
        '--out',
        out,
      ],
      { env: { APB_API_KEY: undefined } },
    );
    expect(result.code).toBe(1);
    const board = readFileSync(path.join(out, 'leaderboard.md'), 'utf8');
    expect(board).toContain('baseline:oracle');
    expect(board).toMatch(/\|\s*1\s*\|[^\n]*baseline:oracle/);
  });
});
