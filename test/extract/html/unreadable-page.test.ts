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
      `the page renders its content with JavaScript (an app shell with ${textChars} characters of text outside its header, navigation and footer); Scout fetches static HTML only — look for a server-rendered URL, an API or a feed`,
    ]);
  });

  it.each(READABLE_CASES)('$name is extracted as usual', async ({ name, expect: phrase }) => {
    expect((await extract('readable', name)).markdown).toContain(phrase);
  });

  it('reads the markup of a page with long markdown again only for an app shell, and only when it has a mount point', async () => {
    const { refuseUnreadablePage } = await import('../../../src/extract/html/unreadable-page.ts');
    const shell = unreadableFixture('shell', 'store-chrome-around-empty-root');
    // However long the markdown its chrome made, a page with an app's mount and no content of its own is a shell.
    expect(() => refuseUnreadablePage(shell, 'x'.repeat(10_000))).toThrow(/app shell with 33 characters/);
    // A block page's markers in a page whose markdown is long are not looked for: it has content.
    const challenge = unreadableFixture('block', 'cloudflare-managed-challenge');
    expect(() => refuseUnreadablePage(challenge, 'x'.repeat(10_000))).not.toThrow();
    expect(() => refuseUnreadablePage(challenge, 'short')).toThrow(/Cloudflare/);
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
