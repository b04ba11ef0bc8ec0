import { describe, expect, it } from 'vitest';
import { createRedirectTrail, isRedirectStatus, redirectTarget } from '../../src/fetch/redirects.ts';

describe('redirects', () => {
  it('knows the redirect statuses', () => {
    expect([301, 302, 303, 307, 308].every(isRedirectStatus)).toBe(true);
    expect([200, 300, 304, 305, 306, 400].some(isRedirectStatus)).toBe(false);
  });

  it('resolves Location against the current URL and inherits a fragment', () => {
    const from = new URL('https://a.example/dir/page#section');
    expect(redirectTarget(from, 'other', 302).href).toBe('https://a.example/dir/other#section');
    expect(redirectTarget(from, '//b.example/x#own', 301).href).toBe('https://b.example/x#own');
    expect(redirectTarget(from, ['/first', '/second'], 307).href).toBe('https://a.example/first#section');
  });

  it('rejects a missing or unusable Location with 502', () => {
    const from = new URL('https://a.example/');
    expect(() => redirectTarget(from, undefined, 302)).toThrow('origin answered 302 without a Location header');
    expect(() => redirectTarget(from, 'http://[bad', 301)).toThrow(/unusable Location/);
  });

  it('allows exactly maxHops hops, then refuses', () => {
    const trail = createRedirectTrail(new URL('https://a.example/0'), 3);
    for (let i = 1; i <= 3; i += 1) trail.follow(new URL(`https://a.example/${i}`));
    expect(() => trail.follow(new URL('https://a.example/4'))).toThrow(
      /too many redirects: https:\/\/a\.example\/0 redirected more than 3 times/,
    );
  });

  it('detects a loop, ignoring fragments', () => {
    const trail = createRedirectTrail(new URL('https://a.example/start'), 10);
    trail.follow(new URL('https://a.example/next'));
    expect(() => trail.follow(new URL('https://a.example/start#again'))).toThrow(/redirect loop/);
  });
});
