import { describe, expect, it } from 'vitest';
import { compilePattern, pathFilter, pathMatches } from '../../src/site/path-patterns.ts';

const m = (pattern: string, path: string) => pathMatches(compilePattern(pattern), path);

describe('path patterns', () => {
  it('matches * within a segment and ** across segments', () => {
    expect(m('/docs/**', '/docs')).toBe(true);
    expect(m('/docs/**', '/docs/')).toBe(true);
    expect(m('/docs/**', '/docs/a/b')).toBe(true);
    expect(m('/docs/**', '/doc')).toBe(false);
    expect(m('/blog/*', '/blog/hello')).toBe(true);
    expect(m('/blog/*', '/blog/2024/hello')).toBe(false);
    expect(m('/blog/*/2024-*', '/blog/x/2024-05')).toBe(true);
    expect(m('/**/api/*', '/v2/ref/api/users')).toBe(true);
    expect(m('/**/api/*', '/api/users')).toBe(true);
    expect(m('/a**b', '/axyb')).toBe(true);
    expect(m('/Docs', '/docs')).toBe(false);
    expect(m('/', '/')).toBe(true);
  });

  it('takes time linear-ish in the lengths on the inputs that make backtracking regexes explode', () => {
    const path = `/${'a'.repeat(2000)}`;
    const pattern = `/${'*a'.repeat(40)}b`;
    // A regex of the same shape (/^\/(?:[^/]*a){40}b$/) backtracks for ages; this answers at once.
    expect(m(pattern, path)).toBe(false);
    const deep = `/${Array.from({ length: 500 }, () => 'a').join('/')}`;
    expect(m(`/**/${Array.from({ length: 30 }, () => '**/a').join('/')}/b`, deep)).toBe(false);
  });

  it('keeps a path matching an include (or with none) and no exclude', () => {
    const keep = pathFilter(['/docs/**', '/api/*'], ['/docs/internal/**']);
    expect(keep('/docs/intro')).toBe(true);
    expect(keep('/api/users')).toBe(true);
    expect(keep('/docs/internal/x')).toBe(false);
    expect(keep('/blog/x')).toBe(false);
    expect(pathFilter([], ['/x'])('/y')).toBe(true);
  });
});
