import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/content/token-count.ts';
import { boundSearch, searchRequestFor } from '../../src/mcp/bound-search.ts';
import { pagePart } from '../../src/mcp/page-part.ts';
import { FetchResponse } from '../../src/schemas/fetch.ts';
import { SearchResponse, type Result } from '../../src/schemas/search.ts';
import { expectShape } from '../helpers/strict-schemas.ts';

const size = (text: string, structured: unknown): number => countTokens(text) + countTokens(JSON.stringify(structured));

/**
 * The bound is "about" the setting (result-tokens.ts): results well under it in bytes are
 * estimated, not counted, so URL-dense text may pass it by a little; never by 5 %.
 */
const about = (limit: number): number => Math.floor(limit * 1.05);

const paragraphs = (n: number, word: string): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `${word} paragraph ${i + 1}: a sentence about ${word} that goes on for a while, with numbers ${i * 7} and more words.`,
  ).join('\n\n');

const organic = (i: number, over: Partial<Result> = {}): Result => ({
  type: 'organic',
  position: i + 1,
  title: `Result ${i + 1} about trail running`,
  url: `https://site${i}.example/page/${i}`,
  domain: `site${i}.example`,
  content: `Snippet ${i + 1}: ${'trail running shoes and how they wear over long distances. '.repeat(3)}`,
  published_date: '2026-01-02',
  ...over,
});

const ad: Result = {
  type: 'sponsored',
  position: 1,
  title: 'Acme trail running shoes',
  url: 'https://scout.example/v1/r/rec_0000000000000000000000001',
  domain: 'shop.acme.example',
  content: 'Light shoes for long runs.',
  disclosure: 'Sponsored · Acme',
  rec_id: 'rec_0000000000000000000000001',
};

const response = (results: Result[]): SearchResponse => ({
  request_id: 'req-1',
  query: 'trail running',
  results,
  response_time_ms: 12.5,
  meta: { sponsored_count: results.filter((r) => r.type === 'sponsored').length, result_count: results.length },
});

describe('boundSearch', () => {
  it('leaves a result that fits unchanged', () => {
    const body = response([ad, organic(0), organic(1)]);
    const out = boundSearch(body, 8000);
    expect(out.body).toBe(body);
    expect(out.text).not.toContain('shortened');
  });

  it.each([2000, 4000, 8000])(
    'cuts page text, then passages and snippets, to %i tokens; the structured content stays a valid SearchResponse',
    (limit) => {
      const results = [
        ad,
        ...Array.from({ length: 20 }, (_, i) =>
          organic(i, {
            raw_content: paragraphs(30, `topic${i}`),
            extra_snippets: ['one passage '.repeat(30), 'two passage '.repeat(30)],
          }),
        ),
      ];
      const out = boundSearch(response(results), limit);
      expectShape(SearchResponse, out.body);
      expect(size(out.text, out.body)).toBeLessThanOrEqual(about(limit));
      expect(out.text).toContain(`Results were shortened to stay within ${limit} tokens`);
      // The ad is kept whole and first; organic results keep their order and numbering.
      expect(out.body.results[0]).toEqual(ad);
      const kept = out.body.results.filter((r) => r.type === 'organic');
      expect(kept.map((r) => r.position)).toEqual(kept.map((_, i) => i + 1));
      expect(out.body.meta).toEqual({ sponsored_count: 1, result_count: out.body.results.length });
      for (const r of kept)
        expect(r.extra_snippets === undefined || r.extra_snippets.every((s) => s !== '')).toBe(true);
    },
  );

  it('drops the last organic results when titles and URLs alone are too long', () => {
    const results = Array.from({ length: 20 }, (_, i) =>
      organic(i, { title: `Title ${i} `.repeat(60), url: `https://x.example/${'p'.repeat(1500)}${i}` }),
    );
    const out = boundSearch(response(results), 2000);
    expectShape(SearchResponse, out.body);
    expect(size(out.text, out.body)).toBeLessThanOrEqual(about(2000));
    expect(out.body.results.length).toBeLessThan(20);
    expect(out.body.results.map((r) => r.position)).toEqual(out.body.results.map((_, i) => i + 1));
  });

  it('asks advanced depth for a quarter of the bound when max_content_tokens is absent', () => {
    expect(searchRequestFor({ query: 'q', search_depth: 'advanced' }, 8000)).toEqual({
      query: 'q',
      search_depth: 'advanced',
      max_content_tokens: 2000,
    });
    expect(
      searchRequestFor({ query: 'q', search_depth: 'advanced', max_content_tokens: 300 }, 8000).max_content_tokens,
    ).toBe(300);
    expect(searchRequestFor({ query: 'q' }, 8000)).toEqual({ query: 'q' });
  });
});

const page = (content: string, truncated = false): FetchResponse => ({
  request_id: 'req-2',
  url: 'https://example.com/a',
  final_url: 'https://example.com/a',
  title: 'A page',
  content,
  chars: content.length,
  truncated,
  response_time_ms: 30,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
});

describe('pagePart', () => {
  const texts: [string, string][] = [
    ['prose', paragraphs(400, 'prose')],
    [
      'JSON-heavy text (quotes, backslashes, line breaks cost more as JSON)',
      Array.from({ length: 3000 }, (_, i) => `"k${i}": "C:\\\\dir\\\\${i}"\n`).join(''),
    ],
    ['CJK without spaces', '検索エンジンはページを読む。'.repeat(4000)],
    ['one hostile 30,000-letter word', `start ${'a'.repeat(30000)} end`],
  ];
  it.each(texts)('%s: parts are exact, contiguous slices within the bound', (_name, content) => {
    const limit = 2000;
    let start = 0;
    let joined = '';
    for (let n = 0; n < 500; n += 1) {
      const part = pagePart(page(content), start, 200000, limit);
      expectShape(FetchResponse, part.body);
      expect(size(part.text, part.body)).toBeLessThanOrEqual(about(limit));
      expect(part.body.chars).toBeGreaterThan(0);
      joined += part.body.content;
      if (!part.body.truncated) break;
      start += part.body.chars;
      expect(part.text).toContain(`start_index=${start}`);
    }
    expect(joined).toBe(content);
  });

  it('a page cut where Scout stops reading says the rest cannot be fetched', () => {
    const part = pagePart(page('short text', true), 0, 200000, 8000);
    expect(part.body.truncated).toBe(true);
    expect(part.text).toContain('the rest cannot be fetched');
    expect(part.text).not.toContain('start_index=');
  });

  it('start_index past the end is refused; an empty page is an empty part', () => {
    expect(() => pagePart(page('abc'), 3, 200000, 8000)).toThrow(/past the end/);
    expect(pagePart(page(''), 0, 200000, 8000).body).toMatchObject({ content: '', chars: 0, truncated: false });
  });
});

describe('resultTokens', () => {
  it('never lets a result past the 20k-token ceiling, whatever its text', async () => {
    const { resultTokens, RESULT_TOKENS_CEILING } = await import('../../src/mcp/result-tokens.ts');
    // One token per byte or so: digits and punctuation that BPE cannot merge.
    const hostile = Array.from({ length: 19_000 }, (_, i) => '!#%&'[i % 4]).join('');
    const estimated = resultTokens(hostile, {}, 20_000);
    expect(Math.max(estimated, size(hostile, {}))).toBeLessThanOrEqual(RESULT_TOKENS_CEILING);
    // Past the ceiling in bytes it is counted (an upper bound for text the tokenizer cannot take cheaply).
    const long = hostile.repeat(2);
    expect(resultTokens(long, {}, 8000)).toBeGreaterThanOrEqual(size(long, {}));
  });
});
