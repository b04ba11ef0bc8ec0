import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { BLOCK_CASES, READABLE_CASES, SHELL_CASES, unreadableFixture } from '../extract/unreadable-fixtures.ts';
import { startFixtureServer, type FixtureServer, type Routes } from '../helpers/fixture-server.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

/**
 * Bot challenges, CAPTCHA walls, WAF block pages and app shells through a real Scout: a 502
 * in the Error shape whose message names the cause, whatever status the origin used; pages
 * that only mention or embed the same things are fetched as usual.
 */

const html = { 'content-type': 'text/html; charset=utf-8' };
let t: TestScout;
let origin: FixtureServer;

beforeAll(async () => {
  const routes: Routes = {
    // Cloudflare's challenge header decides before the body is read.
    '/cf-mitigated': {
      status: 403,
      headers: { ...html, 'cf-mitigated': 'challenge' },
      body: '<html><body>Forbidden</body></html>',
    },
    '/cf-522': { status: 522, headers: html, body: unreadableFixture('readable', 'cloudflare-522') },
  };
  for (const c of BLOCK_CASES)
    routes[`/block/${c.name}`] = {
      status: c.status,
      headers: { ...html, ...c.headers },
      body: unreadableFixture('block', c.name),
    };
  for (const c of SHELL_CASES) routes[`/shell/${c.name}`] = { headers: html, body: unreadableFixture('shell', c.name) };
  for (const c of READABLE_CASES)
    routes[`/readable/${c.name}`] = { headers: html, body: unreadableFixture('readable', c.name) };
  origin = await startFixtureServer(routes);
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
});
afterAll(async () => {
  await t.close();
  await origin.close();
});

/** `T`: the body the case expects, a page or a refusal. */
const fetchPage = <T>(path: string) => t.request<T>('POST', '/v1/fetch', { body: { url: origin.url(path) } });

describe('POST /v1/fetch on pages that are not the page', () => {
  it.each(BLOCK_CASES)('$name (HTTP $status) → 502 naming $vendor', async ({ name, vendor, status }) => {
    const res = await fetchPage<ErrorBody>(`/block/${name}`);
    expect(res.status).toBe(502);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(Object.keys(res.body.error).sort()).toEqual(['message', 'status']);
    // Non-2xx answers also carry the origin's status; 2xx ones were caught after extraction.
    const where = status >= 300 ? `${vendor}, HTTP ${status}` : vendor;
    expect(res.body.error.message).toMatch(
      /^the site answered with (a bot challenge|a CAPTCHA|a block page from its firewall) \(/,
    );
    expect(res.body.error.message).toContain(
      `(${where}) instead of the page; Scout cannot pass it — try another source`,
    );
  });

  it('names a Cloudflare challenge from its cf-mitigated header', async () => {
    const res = await fetchPage<ErrorBody>('/cf-mitigated');
    expect(res.status).toBe(502);
    expect(res.body.error.message).toContain('a bot challenge (Cloudflare, HTTP 403)');
  });

  it.each(SHELL_CASES)('$name → 502 saying the page needs JavaScript', async ({ name, textChars }) => {
    const res = await fetchPage<ErrorBody>(`/shell/${name}`);
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe(
      `the page renders its content with JavaScript (an app shell with ${textChars} characters of text outside its header, navigation and footer); Scout fetches static HTML only — look for a server-rendered URL, an API or a feed`,
    );
  });

  it.each(READABLE_CASES)('$name → 200 with its content', async ({ name, expect: phrase }) => {
    const res = await fetchPage<FetchResponse>(`/readable/${name}`);
    expect(res.status).toBe(200);
    expect(res.body.content).toContain(phrase);
  });

  it("keeps Cloudflare's origin-error page as the origin's status", async () => {
    const res = await fetchPage<ErrorBody>('/cf-522');
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe('origin answered 522');
  });
});
