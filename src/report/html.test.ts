import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-lines.fixture.js';
import { fakeLeaderboard } from './fake-leaderboard.fixture.js';
import { renderHtml } from './html.js';

const HOSTILE = '</script><img src=x onerror=alert(1)>';

function hostileReport() {
  return fakeReport([
    {
      dir: 'runs/<evil>',
      specs: [
        ...fakeLeaderboard(['openai:gpt-4o']),
        {
          split: 'holistic_planning',
          id: 'evil-1',
          model: `m${HOSTILE}`,
          response: HOSTILE,
          reasoning: `judge says ${HOSTILE}`,
          query: `query ${HOSTILE}`,
        },
      ],
    },
  ]);
}

/** The text inside every `<script type="application/json">` block. */
function jsonBlocks(html: string): Map<string, string> {
  return new Map(
    [...html.matchAll(/<script type="application\/json" id="([^"]+)">([\s\S]*?)<\/script>/g)].map(
      (match) => [match[1]!, match[2]!],
    ),
  );
}

describe('html', () => {
  it('escapes hostile model names in tables and embeds case text inertly', () => {
    const html = renderHtml(hostileReport());
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('m&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('runs/&lt;evil&gt;');
    // Only our own script tags: the JSON blocks, and one executable script at the end.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.filter((tag) => tag === '<script>')).toHaveLength(1);
    for (const [, text] of jsonBlocks(html)) expect(text).not.toMatch(/<\/script|<!--/i);
  });

  it('keeps the hostile answer, reasoning and query intact as data in the compressed chunks', () => {
    const html = renderHtml(hostileReport());
    const blocks = jsonBlocks(html);
    const index = JSON.parse(blocks.get('apb-index')!);
    expect(index.models).toContain(`m${HOSTILE}`);
    const rows = [...blocks]
      .filter(([id]) => id.startsWith('apb-rows-'))
      .flatMap(([, text]) =>
        JSON.parse(gunzipSync(Buffer.from(JSON.parse(text), 'base64')).toString('utf8')),
      );
    const cases = [...blocks]
      .filter(([id]) => id.startsWith('apb-cases-'))
      .flatMap(([, text]) =>
        JSON.parse(gunzipSync(Buffer.from(JSON.parse(text), 'base64')).toString('utf8')),
      );
    expect(
      rows.some(
        (row: { response: string; reasoning: string }) =>
          row.response === HOSTILE && row.reasoning === `judge says ${HOSTILE}`,
      ),
    ).toBe(true);
    expect(cases.some((detail: { query: string }) => detail.query === `query ${HOSTILE}`)).toBe(
      true,
    );
  });

  it('allows no external resource: CSP with a script hash, no http(s) URL in src/href', () => {
    const html = renderHtml(fakeReport([{ dir: 'runs/a', specs: fakeLeaderboard() }]));
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/
      .exec(html)![1]!
      .replace(/&#39;/g, "'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/\binnerHTML\b/);
  });

  it('inlines the figures with accessible titles', () => {
    const html = renderHtml(fakeReport([{ dir: 'runs/a', specs: fakeLeaderboard() }]));
    for (const id of ['fig3', 'fig4-holistic', 'fig4-step-wise', 'fig5', 'fig6', 'fig58', 'fig59'])
      expect(html).toContain(`<figure id="${id}">`);
    expect(html).toMatch(/<svg [^>]*role="img" aria-labelledby="[^"]+"/);
  });
});
