import { describe, expect, it } from 'vitest';
import { frontierKey, toFrontierUrl } from '../../src/site/frontier-url.ts';

describe('toFrontierUrl', () => {
  it('resolves against the page, drops the fragment and tracking parameters', () => {
    expect(toFrontierUrl('../b?utm_source=x&id=2#top', 'https://Example.com/a/c')).toEqual({
      url: 'https://example.com/b?id=2',
    });
    expect(toFrontierUrl('https://example.com:443/x#y')).toEqual({ url: 'https://example.com/x' });
  });

  it.each([
    ['mailto:a@example.com', /not http\(s\) \(mailto\)/],
    ['javascript:void(0)', /not http\(s\)/],
    ['ftp://example.com/file', /not http\(s\) \(ftp\)/],
    ['https://user:pw@example.com/', /credentials/],
    ['https://user@example.com/', /credentials/],
    ['https://example.com/logo.PNG', /not a page \(\.png\)/],
    ['https://example.com/dist/app.tar.gz?v=1', /not a page \(\.gz\)/],
    ['https://example.com/font.woff2', /not a page/],
    ['http://[bad', /not a valid URL/],
  ])('skips %s', (raw, reason) => {
    const out = toFrontierUrl(raw);
    expect('skip' in out && out.skip).toMatch(reason);
  });

  it('queues the target of a known redirect wrapper, judged by the same rules', () => {
    const google = `https://www.google.com/url?q=${encodeURIComponent('https://example.com/real#x')}&sa=D`;
    expect(toFrontierUrl(google)).toEqual({ url: 'https://example.com/real' });
    expect(
      toFrontierUrl(`/l/?uddg=${encodeURIComponent('https://example.com/pic.jpg')}`, 'https://duckduckgo.com/'),
    ).toMatchObject({ skip: expect.stringMatching(/not a page/) });
  });

  it('keeps pages, PDFs and dotted directory names', () => {
    for (const raw of [
      'https://example.com/report.pdf',
      'https://example.com/v1.2/',
      'https://example.com/page.html',
      'https://example.com/.well-known',
    ]) {
      expect(toFrontierUrl(raw)).toHaveProperty('url');
    }
  });
});

describe('frontierKey', () => {
  it('ignores scheme, www, trailing slash and parameter order', () => {
    expect(frontierKey('http://www.example.com/a/?b=2&a=1')).toBe(frontierKey('https://example.com/a?a=1&b=2'));
    expect(frontierKey('https://example.com/a')).not.toBe(frontierKey('https://example.com/b'));
  });
});
