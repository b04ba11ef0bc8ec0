import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../../src/fetch/address-policy.ts';
import type { DomainError } from '../../src/domain/errors.ts';
import { createUrlGuard } from '../../src/fetch/url-guard.ts';
import { createHttpFetcher, type HttpFetcher } from '../../src/fetch/http-fetch.ts';
import { STATUS_BODY_PREFIX } from '../../src/fetch/status-error.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { unreadableFixture } from '../extract/unreadable-fixtures.ts';

const html = { 'content-type': 'text/html; charset=UTF-8' };
let site: FixtureServer;
let http: HttpFetcher;

const failure = (path: string): Promise<DomainError> =>
  http.fetch(new URL(site.url(path)), AbortSignal.timeout(5000)).then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as DomainError,
  );

beforeAll(async () => {
  site = await startFixtureServer({
    '/cf-gzip': {
      status: 403,
      headers: { ...html, 'content-encoding': 'gzip', server: 'cloudflare' },
      body: gzipSync(unreadableFixture('block', 'cloudflare-blocked')),
    },
    '/iuam': { status: 503, headers: html, body: unreadableFixture('block', 'cloudflare-legacy-iuam') },
    '/kasada': { status: 429, headers: html, body: unreadableFixture('block', 'kasada-429') },
    '/cf-1020-text': {
      status: 403,
      headers: { 'content-type': 'text/plain; charset=UTF-8', server: 'cloudflare' },
      body: 'error code: 1020',
    },
    '/nginx-403': { status: 403, headers: html, body: unreadableFixture('readable', 'plain-403') },
    '/cf-522': { status: 522, headers: html, body: unreadableFixture('readable', 'cloudflare-522') },
    // The header says it all, whatever the body.
    '/cf-mitigated': {
      status: 403,
      headers: { ...html, 'cf-mitigated': 'challenge' },
      body: '<html><body>Forbidden</body></html>',
    },
    // Markers past the prefix are not read: an endless body ends at the cap as a plain 403.
    '/endless-403': (_req, res) => {
      res.writeHead(403, html);
      res.write(`<html><body>${' '.repeat(STATUS_BODY_PREFIX)}`);
      res.write(unreadableFixture('block', 'datadome-captcha'));
    },
    '/image-403': {
      status: 403,
      headers: { 'content-type': 'image/png' },
      body: unreadableFixture('block', 'datadome-captcha'),
    },
    '/bad-coding': { status: 403, headers: { ...html, 'content-encoding': 'zstd' }, body: 'x' },
  });
  http = createHttpFetcher({ guard: createUrlGuard({ policy: createAddressPolicy(['127.0.0.2/32']) }) });
});
afterAll(async () => {
  await http.close();
  await site.close();
});

describe('non-2xx answers that are challenges or block pages', () => {
  it('names a gzip-encoded Cloudflare block page with its status', async () => {
    const e = await failure('/cf-gzip');
    expect([e.kind, e.message]).toEqual([
      'upstream',
      'the site answered with a block page from its firewall (Cloudflare, HTTP 403) instead of the page; Scout cannot pass it — try another source',
    ]);
  });

  it.each([
    ['/iuam', 'a bot challenge (Cloudflare, HTTP 503)'],
    ['/kasada', 'a bot challenge (Kasada, HTTP 429)'],
    ['/cf-1020-text', 'a block page from its firewall (Cloudflare, HTTP 403)'],
    ['/cf-mitigated', 'a bot challenge (Cloudflare, HTTP 403)'],
  ])('%s → %s', async (path, named) => {
    expect((await failure(path)).message).toContain(`the site answered with ${named} instead of the page`);
  });

  it.each([
    ['/nginx-403', 'origin answered 403 (Forbidden)'],
    ['/cf-522', 'origin answered 522'],
    ['/endless-403', 'origin answered 403 (Forbidden)'],
    ['/image-403', 'origin answered 403 (Forbidden)'],
    ['/bad-coding', 'origin answered 403 (Forbidden)'],
  ])('keeps the plain status for %s', async (path, message) => {
    const e = await failure(path);
    expect([e.kind, e.message]).toEqual(['upstream', message]);
  });
});
