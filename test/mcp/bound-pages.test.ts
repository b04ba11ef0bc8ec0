import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/content/token-count.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { boundPages, type PageOutcome } from '../../src/mcp/bound-pages.ts';
import { FetchPagesResult, type PageRead } from '../../src/mcp/fetch-pages-schemas.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { expectShape } from '../helpers/strict-schemas.ts';

/** fetch_pages' result within the bound, whatever its pages hold (bound-pages.ts). */

const size = (text: string, structured: unknown): number => countTokens(text) + countTokens(JSON.stringify(structured));
// "About" the setting, as for every tool (result-tokens.ts).
const about = (limit: number): number => Math.floor(limit * 1.05);

const page = (url: string, content: string, truncated = false): FetchResponse => ({
  request_id: 'req-1',
  url,
  final_url: url,
  title: `Page at ${url}`,
  content,
  chars: content.length,
  truncated,
  response_time_ms: 30,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
});

const CONTENTS: Record<string, string> = {
  prose: Array.from({ length: 400 }, (_, i) => `Paragraph ${i + 1} says something at some length.`).join('\n\n'),
  json: Array.from({ length: 3000 }, (_, i) => `"k${i}": "C:\\\\dir\\\\${i}"\n`).join(''),
  cjk: '検索エンジンはページを読む。'.repeat(4000),
  hostile: `start ${'a'.repeat(30000)} end`,
  short: 'A short page.',
};

describe('boundPages', () => {
  it.each([2000, 8000])('keeps ten mixed pages within %i tokens, each an exact prefix, in order', (limit) => {
    const kinds = Object.keys(CONTENTS);
    const outcomes: PageOutcome[] = Array.from({ length: 10 }, (_, i) => {
      const url = `https://example.com/${i}`;
      if (i === 7) return { url, error: new DomainError('forbidden', 'refused: not a public address') };
      return { url, page: page(url, CONTENTS[kinds[i % kinds.length] as string] as string) };
    });
    const r = boundPages(outcomes, { maxChars: 50000, limit, canReadOn: true });
    expectShape(FetchPagesResult, r.body);
    expect(size(r.text, r.body)).toBeLessThanOrEqual(about(limit));
    expect(r.body.results.map((x) => x.url)).toEqual(outcomes.map((x) => x.url));
    expect(r.body.results[7]).toEqual({
      url: 'https://example.com/7',
      ok: false,
      error: { status: 403, message: 'refused: not a public address' },
    });
    for (const [i, x] of r.body.results.entries()) {
      if (!x.ok) continue;
      const full = (outcomes[i] as { page: FetchResponse }).page.content;
      const p = x as PageRead;
      expect(p.content).toBe(full.slice(0, p.chars));
      expect(p.next_index).toBe(p.chars < full.length ? p.chars : null);
      if (p.next_index !== null) expect(r.text).toContain(`start_index=${p.next_index}`);
    }
    // The short page is whole whatever the bound.
    expect(r.body.results[4]).toMatchObject({ ok: true, content: 'A short page.', next_index: null });
  });

  it('without fetch_page offered, a cut page says where the rest starts and names no tool', () => {
    const url = 'https://example.com/long';
    const r = boundPages([{ url, page: page(url, CONTENTS.prose as string) }], {
      maxChars: 50000,
      limit: 2000,
      canReadOn: false,
    });
    const p = r.body.results[0] as PageRead;
    expect(r.text).toContain(`More content follows (parts are kept within 2000 tokens), from character ${p.chars}.`);
    expect(r.text).not.toContain('fetch_page');
  });

  it('refuses URLs whose titles and addresses alone pass the bound', () => {
    const long = (i: number) => `https://example.com/${String(i).repeat(1)}${'x'.repeat(2000)}`;
    const outcomes: PageOutcome[] = Array.from({ length: 10 }, (_, i) => ({
      url: long(i),
      page: page(long(i), 'text'),
    }));
    expect(() => boundPages(outcomes, { maxChars: 50000, limit: 2000, canReadOn: true })).toThrow(
      /^the titles, addresses and errors of these 10 pages alone are longer than the result limit of 2000 tokens; ask for fewer URLs per call$/,
    );
  });
});
