import { describe, expect, it } from 'vitest';
import type { ProviderResult } from '../../src/search/search-types.ts';
import { RRF_K, reciprocalRankFusion } from '../../src/providers/fusion.ts';
import { defined } from '../helpers/defined.ts';

const r = (url: string, extra: Partial<ProviderResult> = {}): ProviderResult => ({
  title: url,
  url,
  content: `about ${url}`,
  ...extra,
});

describe('reciprocalRankFusion', () => {
  it('ranks by the sum of 1/(k + rank) and merges duplicates across lists', () => {
    const local = [r('https://docs.internal/a'), r('https://b.com/'), r('https://c.com/')];
    const web = [
      r('https://www.b.com/?utm_source=x', { favicon: 'https://b.com/f.ico' }),
      r('https://d.com/'),
      r('https://docs.internal/a'),
    ];
    const fused = reciprocalRankFusion([local, web]);
    // b: 1/62 + 1/61 > a: 1/61 + 1/63 > d: 1/62 > c: 1/63.
    expect(fused.map((x) => x.url)).toEqual([
      'https://b.com/',
      'https://docs.internal/a',
      'https://d.com/',
      'https://c.com/',
    ]);
    expect(fused[0]?.favicon).toBe('https://b.com/f.ico');
    expect(RRF_K).toBe(60);
  });

  it('keeps first-seen order on ties and counts a page once per list', () => {
    const fused = reciprocalRankFusion([[r('https://x.com/'), r('https://x.com/#dup')], [r('https://y.com/')]]);
    expect(fused.map((x) => x.url)).toEqual(['https://x.com/', 'https://y.com/']);
  });

  it('does not change the inputs', () => {
    const a = [r('https://a.com/')];
    const b = [r('https://a.com/', { publishedDate: '2025-01-01T00:00:00Z' })];
    reciprocalRankFusion([a, b]);
    expect(defined(a[0], 'the input result').publishedDate).toBeUndefined();
  });
});

describe('cleanResults and dedupeResults', () => {
  it('clean URLs, drop non-http results, title untitled ones and merge duplicates in first-seen order', async () => {
    const { cleanResults, dedupeResults } = await import('../../src/providers/merge-results.ts');
    const raw = [
      r('https://a.com/x?utm_source=feed', { title: '' }),
      r('ftp://a.com/file'),
      r('https://b.com/'),
      r('http://www.a.com/x/', { publishedDate: '2025-01-01', extraSnippets: ['more'] }),
    ];
    const out = dedupeResults(cleanResults(raw));
    expect(out).toEqual([
      {
        title: 'https://a.com/x',
        url: 'https://a.com/x',
        content: 'about https://a.com/x?utm_source=feed',
        publishedDate: '2025-01-01',
        extraSnippets: ['more'],
      },
      { title: 'https://b.com/', url: 'https://b.com/', content: 'about https://b.com/' },
    ]);
    expect(raw[0]?.title).toBe('');
  });
});

describe('reciprocalRankFusion with a list of exact URLs (the local index)', () => {
  it('keeps the sections of one page apart, and still merges a web result for the page with the section-less one', () => {
    const local = [
      { title: 'API: keys', url: 'https://scout.invalid/docs/api.md#keys', content: 'a' },
      { title: 'API: limits', url: 'https://scout.invalid/docs/api.md#limits', content: 'b' },
      { title: 'Guide', url: 'https://example.com/guide', content: 'c' },
    ];
    const web = [
      { title: 'Guide (web)', url: 'https://example.com/guide#top', content: 'd' },
      { title: 'Other', url: 'https://example.com/other', content: 'e' },
    ];
    const fused = reciprocalRankFusion([web, local], undefined, [false, true]);
    expect(fused.map((r) => r.url)).toEqual([
      // Both lists rank the guide: it comes first, merged (the web's copy first seen).
      'https://example.com/guide#top',
      'https://scout.invalid/docs/api.md#keys',
      'https://example.com/other',
      'https://scout.invalid/docs/api.md#limits',
    ]);
    // Without the flag, the two sections are one page.
    expect(reciprocalRankFusion([web, local]).filter((r) => r.url.startsWith('https://scout.invalid'))).toHaveLength(1);
  });
});
