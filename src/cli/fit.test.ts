import { describe, expect, it } from 'vitest';
import { fitLine, wrapLine } from './fit.js';
import { progressText } from './progress.js';

describe('wrapLine', () => {
  it('keeps a line that fits, and every line when there is no width (not a TTY)', () => {
    expect(wrapLine('apb: run complete in 1.4 s', 80)).toEqual(['apb: run complete in 1.4 s']);
    const long = `    usage: ${'planner 69 calls · '.repeat(12)}`;
    expect(wrapLine(long, null)).toEqual([long]);
  });

  it('wraps at spaces into lines no wider than the width, indented past the first', () => {
    const line = `    usage: ${Array.from({ length: 12 }, (_, i) => `role${i} 69 calls`).join(' · ')}`;
    const lines = wrapLine(line, 40);
    expect(lines.length).toBeGreaterThan(3);
    for (const text of lines) expect(text.length).toBeLessThanOrEqual(40);
    expect(lines[0]!.startsWith('    usage: role0')).toBe(true);
    for (const text of lines.slice(1)) expect(text.startsWith('        ')).toBe(true);
    expect(lines.join(' ').replace(/\s+/g, ' ').trim()).toBe(line.replace(/\s+/g, ' ').trim());
  });

  it('cuts a word longer than the width', () => {
    const lines = wrapLine(`  report: /tmp/${'x'.repeat(100)}/report.html`, 30);
    for (const text of lines) expect(text.length).toBeLessThanOrEqual(30);
    expect(lines.join('').replace(/\s+/g, '')).toContain('x'.repeat(20));
  });
});

describe('fitLine', () => {
  const full = progressText(
    120,
    200,
    50_000,
    'correct 80  error 3  parse_error 2  judge_error 1  retries 14  429s 6',
  );

  it('leaves the full progress line alone when it fits or there is no width', () => {
    expect(fitLine(full, 200)).toBe(full);
    expect(fitLine(full, null)).toBe(full);
    expect(full.length).toBeGreaterThan(80);
  });

  it('shortens the progress line to the width, keeping the counts it can', () => {
    const fitted = fitLine(full, 80);
    expect(fitted.length).toBeLessThanOrEqual(79);
    expect(fitted).toContain('120/200');
    expect(fitted).toContain('ok 80');
    expect(fitted).toContain('parse 2');
    const narrow = fitLine(full, 40);
    expect(narrow.length).toBeLessThanOrEqual(39);
    expect(narrow.endsWith('…')).toBe(true);
  });
});
