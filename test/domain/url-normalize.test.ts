import { describe, expect, it } from 'vitest';
import { cleanUrl, dedupeKey, isTrackingParam } from '../../src/domain/url-normalize.ts';

describe('cleanUrl', () => {
  it('lower-cases scheme and host and drops default ports', () => {
    expect(cleanUrl('HTTPS://WWW.Example.COM:443/Path?q=A')).toBe('https://www.example.com/Path?q=A');
    expect(cleanUrl('http://example.com:80/')).toBe('http://example.com/');
    expect(cleanUrl('http://example.com:8080/')).toBe('http://example.com:8080/');
  });

  it('removes tracking parameters and keeps the others as given', () => {
    expect(
      cleanUrl('https://a.com/p?utm_source=x&id=7&UTM_Medium=y&gclid=1&fbclid=2&mc_eid=3&ref_src=twsrc&q=a+b%20c'),
    ).toBe('https://a.com/p?id=7&q=a+b%20c');
    expect(cleanUrl('https://a.com/p?utm_source=x')).toBe('https://a.com/p');
    expect(cleanUrl('https://tokio.rs/?srsltid=AfmBOoq123')).toBe('https://tokio.rs/');
  });

  it('removes text-fragment directives but keeps real fragments', () => {
    expect(cleanUrl('https://a.com/doc#:~:text=runtime')).toBe('https://a.com/doc');
    expect(cleanUrl('https://a.com/doc#section-2:~:text=x')).toBe('https://a.com/doc#section-2');
    expect(cleanUrl('https://a.com/doc#intro')).toBe('https://a.com/doc#intro');
  });

  it('converts IDN hosts to punycode, strips credentials and refuses non-http URLs', () => {
    expect(cleanUrl('https://Bücher.de/x')).toBe('https://xn--bcher-kva.de/x');
    expect(cleanUrl('https://user:pw@a.com/')).toBe('https://a.com/');
    expect(cleanUrl('ftp://a.com/f')).toBeUndefined();
    expect(cleanUrl('javascript:alert(1)')).toBeUndefined();
    expect(cleanUrl('/relative')).toBeUndefined();
  });
});

describe('dedupeKey', () => {
  it('is the same for the same page however it is written', () => {
    const key = dedupeKey('https://example.com/a?a=1&b=2');
    for (const u of [
      'http://WWW.Example.com:80/a/?b=2&a=1#top',
      'https://example.com/a?utm_campaign=z&a=1&b=2',
      'https://www.example.com/a/?a=1&b=2&fbclid=abc',
      'https://example.com:443/a?b=2&a=1',
    ]) {
      expect(dedupeKey(u)).toBe(key);
    }
  });

  it('differs for different pages', () => {
    expect(dedupeKey('https://example.com/a')).not.toBe(dedupeKey('https://example.com/b'));
    expect(dedupeKey('https://example.com/a?id=1')).not.toBe(dedupeKey('https://example.com/a?id=2'));
    expect(dedupeKey('https://sub.example.com/a')).not.toBe(dedupeKey('https://example.com/a'));
    expect(dedupeKey('https://example.com:8443/a')).not.toBe(dedupeKey('https://example.com/a'));
  });

  it('keeps the root and refuses non-http', () => {
    expect(dedupeKey('https://example.com/')).toBe('example.com');
    expect(dedupeKey('mailto:a@b.c')).toBeUndefined();
  });

  // `/\/+$/` retried from every slash of the run: about 28 s for these.
  it('handles a path of 200,000 slashes quickly', { timeout: 10_000 }, () => {
    const slashes = '/'.repeat(200_000);
    expect(dedupeKey(`https://e.com/${slashes}x`)).toBe(`e.com/${slashes}x`);
    expect(dedupeKey(`https://e.com/a${slashes}`)).toBe('e.com/a');
    expect(dedupeKey(`https://e.com${slashes}`)).toBe('e.com');
  });
});

describe('isTrackingParam', () => {
  it('knows the common trackers and nothing else', () => {
    for (const p of [
      'utm_source',
      'utm_content',
      'gclid',
      'fbclid',
      'msclkid',
      'mc_eid',
      'mc_cid',
      'ref_src',
      'igshid',
      '_hsenc',
    ]) {
      expect(isTrackingParam(p)).toBe(true);
    }
    for (const p of ['id', 'q', 'page', 'ref', 'utm']) expect(isTrackingParam(p)).toBe(false);
  });
});
