/** Terminal output helpers: the one control-character stripper for untrusted text shown in a terminal. */
import { terminalWidth, wrapLine } from './fit.js';

/** Removes ANSI escapes and control characters (keeps newlines and tabs) so model text cannot drive the terminal. */
export function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** Writes a line to stderr (diagnostics and progress never mix with stdout output), wrapped to a TTY's width. */
export function say(message: string): void {
  const width = terminalWidth();
  const lines = stripControl(message)
    .split('\n')
    .flatMap((line) => wrapLine(line, width));
  process.stderr.write(`${lines.join('\n')}\n`);
}
