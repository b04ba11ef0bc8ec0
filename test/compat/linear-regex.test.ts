import { describe, expect, it } from 'vitest';
import { compileLinearRegex, MAX_PROGRAM_SIZE, RegexRefused } from '../../src/compat/linear-regex.ts';

const PATHS = [
  '',
  '/',
  '/docs',
  '/docs/',
  '/docs/intro',
  '/en/docs/intro',
  '/api/v1/users',
  '/api/v10',
  '/api/v2/users/42',
  '/blog/2024/05/hello-world',
  '/blog/hello',
  '/private/x',
  '/admin',
  '/a-b_c.d~e',
  '/caf%C3%A9',
  'docs.example.com',
  'private.example.com',
  'example.com',
];

/** Patterns whose meaning is the same in JavaScript and Python: RegExp is the oracle. */
const SAME_IN_JS = [
  '/docs/.*',
  '/api/v1.*',
  '^/docs$',
  '^/docs/?$',
  '/private/.*',
  '/admin/.*',
  '^docs.example.com$',
  '^private\\.example\\.com$',
  '/blog/\\d{4}/.*',
  '/blog/[0-9]{4}/[0-9]{2}/',
  '^/(api|blog)/',
  '^/(?:api|docs)(/.*)?$',
  '/api/v[12]/users/\\d+$',
  '[^/]+$',
  '^/[a-z-_]+$',
  '\\bhello\\b',
  'o\\B',
  '(a|b)*c',
  'x?y+z*',
  'docs',
  '^$',
  '/a{0}b',
  '/(ab){1,3}',
  '.',
  '\\.d',
  '[\\w.~-]+$',
  '%[0-9A-F]{2}',
  '^/api/v1/users/?$',
  '(?P<section>docs|blog)/',
  '(?<section>docs|blog)/',
  'intro|hello',
  '/doc+s',
  '/docs/.*?intro',
];

describe('compileLinearRegex', () => {
  it('matches as RegExp.test does (a search) on patterns whose meaning JavaScript shares', () => {
    for (const source of SAME_IN_JS) {
      const ours = compileLinearRegex(source.replace('(?<section>', '(?P<section>'));
      const js = new RegExp(source.replace('(?P<section>', '(?<section>'));
      for (const text of PATHS) expect(ours.test(text), `${source} on ${JSON.stringify(text)}`).toBe(js.test(text));
    }
  });

  it('refuses what needs backtracking or changes the rest, saying why', () => {
    const refused: [string, RegExp][] = [
      ['(a)\\1', /backreferences/],
      ['(?P<x>a)(?P=x)', /backreferences/],
      ['/docs(?=/)', /lookahead and lookbehind/],
      ['(?<!x)/docs', /lookahead and lookbehind/],
      ['a*+', /nested repetition/],
      ['a**', /nested repetition/],
      ['*a', /missing argument to repetition/],
      ['(a', /missing closing \)/],
      ['a)', /unexpected \)/],
      ['[a-', /missing closing \]/],
      ['[z-a]', /invalid character class range/],
      ['a{3,1}', /invalid repeat count/],
      ['\\q', /invalid escape/],
      ['a\\', /trailing backslash/],
      ['(abc|def){1,200}', new RegExp(`more than ${MAX_PROGRAM_SIZE} instructions`)],
    ];
    for (const [source, why] of refused) {
      let error: unknown;
      try {
        compileLinearRegex(source);
      } catch (e) {
        error = e;
      }
      expect(error, source).toBeInstanceOf(RegexRefused);
      expect((error as Error).message, source).toMatch(why);
    }
  });

  it('answers patterns that make a backtracking engine run for ages, on long texts', () => {
    // Each of these takes a backtracking engine exponential time on such a text; here it is a plain no.
    const text = `/${'a'.repeat(2000)}!`;
    expect(compileLinearRegex('^(a+)+$').test(text)).toBe(false);
    expect(compileLinearRegex('^(a|a)*$').test(text)).toBe(false);
    expect(compileLinearRegex('(a*)*b').test(text)).toBe(false);
    expect(compileLinearRegex('^/(a+)+!$').test(text)).toBe(true);
  });

  it('treats a { that starts no repetition as a literal, as Python does', () => {
    expect(compileLinearRegex('/a{b}').test('/a{b}')).toBe(true);
    expect(compileLinearRegex('^/a{b}$').test('/aa')).toBe(false);
  });

  it("reads Python's \\Z as the end of the text, and honours inline flags", () => {
    expect(compileLinearRegex('/docs\\Z').test('/en/docs')).toBe(true);
    expect(compileLinearRegex('/docs\\Z').test('/docs/x')).toBe(false);
    expect(compileLinearRegex('\\\\Z').test('a\\Z')).toBe(true);
    expect(compileLinearRegex('(?i)^/DOCS').test('/docs/intro')).toBe(true);
  });
});
