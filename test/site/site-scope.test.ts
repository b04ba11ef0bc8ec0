import { describe, expect, it } from 'vitest';
import { sameSite, siteOf } from '../../src/site/site-scope.ts';

describe('siteOf / sameSite', () => {
  it('uses the registrable domain of named hosts', () => {
    expect(siteOf('https://docs.example.com/a')).toBe('example.com');
    expect(siteOf('https://a.b.example.co.uk/')).toBe('example.co.uk');
    expect(sameSite('https://www.example.com/', 'http://blog.example.com:8080/x')).toBe(true);
    expect(sameSite('https://example.com/', 'https://example.org/')).toBe(false);
  });

  it('treats private suffixes as separate owners', () => {
    expect(sameSite('https://alice.github.io/', 'https://bob.github.io/')).toBe(false);
    expect(siteOf('https://alice.github.io/x')).toBe('alice.github.io');
  });

  it('matches IP hosts and single labels exactly, whatever the port', () => {
    expect(sameSite('http://127.0.0.2:1234/', 'http://127.0.0.2:5678/a')).toBe(true);
    expect(sameSite('http://127.0.0.2/', 'http://127.0.0.3/')).toBe(false);
    expect(sameSite('http://[::1]:80/', 'http://[::1]:81/')).toBe(true);
    expect(sameSite('http://intranet/', 'http://intranet:8080/')).toBe(true);
    expect(sameSite('http://intranet/', 'http://other/')).toBe(false);
  });

  it('answers no for URLs that do not parse', () => {
    expect(siteOf('not a url')).toBeUndefined();
    expect(sameSite('not a url', 'not a url')).toBe(false);
  });
});
