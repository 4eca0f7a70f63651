/** Runs the real CLI (`bin/apb.js` over the built dist/) in a child process, as a user would. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(REPO_ROOT, 'bin', 'apb.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * Runs the CLI's `main` in this process (no Node start-up, ~0.5 s of CPU each on this tree), with
 * what it writes to stdout and stderr collected: for refusals and other short commands whose test
 * is about the message and the exit code, not about the process. `runCli` stays for whatever needs
 * a real process (signals, the launcher, environment variables, a server).
 */
export async function runMain(args: string[]): Promise<CliResult> {
  const { main } = await import('../../src/cli/main.js');
  const { vi } = await import('vitest');
  let stdout = '';
  let stderr = '';
  const collect = (append: (text: string) => void) => (chunk: string | Uint8Array) => {
    append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(collect((t) => (stdout += t)));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(collect((t) => (stderr += t)));
  try {
    return { code: await main(args), signal: null, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
