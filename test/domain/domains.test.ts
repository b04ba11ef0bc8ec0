import { describe, expect, it } from 'vitest';
import { displayDomain, domainAllowed, normalizeDomainEntry } from '../../src/domain/domains.ts';

describe('domain rules', () => {
  it.each([
    ['example.com', 'example.com'],
    ['https://WWW.Example.COM:8443/path?q#f', 'example.com'],
    ['//docs.example.com', 'docs.example.com'],
    ['*.example.com', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['example.com.', 'example.com'],
  ])('normalises %s → %s', (input, out) => expect(normalizeDomainEntry(input)).toBe(out));

  it.each(['', '   ', 'not a domain', 'a..b', 'http://'])('refuses %j', (input) =>
    expect(normalizeDomainEntry(input)).toBeUndefined(),
  );

  it('matches a domain and its subdomains, never a suffix of a label; exclude wins', () => {
    expect(domainAllowed('docs.example.com', ['example.com'], [])).toBe(true);
    expect(domainAllowed('badexample.com', ['example.com'], [])).toBe(false);
    expect(domainAllowed('docs.example.com', ['example.com'], ['docs.example.com'])).toBe(false);
    expect(domainAllowed('anything.org', [], [])).toBe(true);
  });

  it('displays the host without www.', () => {
    expect(displayDomain('https://www.Example.com/x')).toBe('example.com');
    expect(displayDomain('https://wwwx.example.com/')).toBe('wwwx.example.com');
  });
});
