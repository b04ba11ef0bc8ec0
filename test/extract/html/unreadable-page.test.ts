import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.ts';
import { extractDocument } from '../../../src/extract/extract-document.ts';
import {
  BLOCK_CASES,
  READABLE_CASES,
  SHELL_CASES,
  unreadableFixture,
  type FixtureGroup,
} from '../unreadable-fixtures.ts';

const extract = (group: FixtureGroup, name: string) =>
  extractDocument({
    body: new TextEncoder().encode(unreadableFixture(group, name)),
    contentType: 'text/html; charset=utf-8',
    url: 'https://site.example/page',
  });

const refusal = (group: FixtureGroup, name: string): Promise<DomainError> =>
  extract(group, name).then(
    () => {
      throw new Error(`${name} was extracted`);
    },
    (e: unknown) => e as DomainError,
  );

describe('extraction refuses what is not the page', () => {
  it.each(BLOCK_CASES)('$name (served as 2xx) is a 502 naming $vendor', async ({ name, vendor }) => {
    const e = await refusal('block', name);
    expect(e).toBeInstanceOf(DomainError);
    expect(e.kind).toBe('upstream');
    expect(e.message).toContain(`(${vendor}) instead of the page; Scout cannot pass it — try another source`);
  });

  it('words each kind', async () => {
    expect((await refusal('block', 'cloudflare-managed-challenge')).message).toMatch(
      /^the site answered with a bot challenge \(Cloudflare\)/,
    );
    expect((await refusal('block', 'hcaptcha-wall')).message).toMatch(/^the site answered with a CAPTCHA \(hCaptcha\)/);
    expect((await refusal('block', 'akamai-access-denied')).message).toMatch(
      /^the site answered with a block page from its firewall \(Akamai\)/,
    );
  });

  it.each(SHELL_CASES)('$name is a 502 saying the page needs JavaScript', async ({ name, textChars }) => {
    const e = await refusal('shell', name);
    expect([e.kind, e.message]).toEqual([
      'upstream',
      `the page renders its content with JavaScript (an app shell with ${textChars} characters of text); Scout fetches static HTML only — look for a server-rendered URL, an API or a feed`,
    ]);
  });

  it.each(READABLE_CASES)('$name is extracted as usual', async ({ name, expect: phrase }) => {
    expect((await extract('readable', name)).markdown).toContain(phrase);
  });

  it('refuses an XHTML challenge page too', async () => {
    const xhtml = unreadableFixture('block', 'perimeterx-press-and-hold').replace(
      '<html lang="en">',
      '<html xmlns="http://www.w3.org/1999/xhtml" lang="en">',
    );
    const e = await extractDocument({
      body: new TextEncoder().encode(xhtml),
      contentType: 'application/xhtml+xml',
      url: 'https://site.example/',
    }).catch((err: unknown) => err);
    expect((e as DomainError).message).toContain('(PerimeterX (HUMAN))');
  });
});
