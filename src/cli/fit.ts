/**
 * Text sized to the terminal: long lines wrap into indented blocks and the progress line shortens
 * instead of spilling over (an 80-column terminal turned every update into a new line). Only a
 * TTY has a width; piped output keeps whole lines, one per update, for logs and scripts.
 */

/** The width to fit to: the stream's columns on a TTY, else null (no limit). */
export function terminalWidth(stream: NodeJS.WriteStream = process.stderr): number | null {
  return stream.isTTY && stream.columns > 0 ? stream.columns : null;
}

/**
 * `line` wrapped to `width` at spaces, each further line indented four past the first line's own
 * indent. A word longer than the width is cut.
 */
export function wrapLine(line: string, width: number | null): string[] {
  if (width === null || line.length <= width) return [line];
  const indent = /^\s*/.exec(line)![0];
  const more = `${indent}    `;
  const words = line.slice(indent.length).split(' ');
  const lines: string[] = [];
  let current = indent;
  for (const word of words) {
    const prefix = current.trim() === '' ? current : `${current} `;
    if (prefix.length + word.length <= width || current.trim() === '') current = prefix + word;
    else {
      lines.push(current);
      current = more + word;
    }
  }
  lines.push(current);
  return lines.flatMap((text) => cut(text, width, more));
}

/** A line still too long after wrapping (one long word) is cut into width-sized pieces. */
function cut(text: string, width: number, indent: string): string[] {
  if (text.length <= width) return [text];
  const pieces = [text.slice(0, width)];
  for (let start = width; start < text.length; start += width - indent.length)
    pieces.push(indent + text.slice(start, start + width - indent.length));
  return pieces;
}

/** Shorter names for the progress line's counts, tried when the full line does not fit. */
const SHORTER: ReadonlyArray<[RegExp, string]> = [
  [/ {2}/g, ' '],
  [/parse_error /g, 'parse '],
  [/judge_error /g, 'judge '],
  [/correct /g, 'ok '],
  [/error /g, 'err '],
  [/\[([#.]{24})\]/, ''],
];

/** The one-line status fitted to `width` (one column is left for the cursor): shortened, then cut. */
export function fitLine(line: string, width: number | null): string {
  if (width === null) return line;
  const room = Math.max(10, width - 1);
  let text = line;
  for (const [pattern, replacement] of SHORTER) {
    if (text.length <= room) return text;
    text = text.replace(pattern, replacement).trimStart();
  }
  return text.length <= room ? text : `${text.slice(0, room - 1)}…`;
}
