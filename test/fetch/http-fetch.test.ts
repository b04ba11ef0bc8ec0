import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../../src/fetch/address-policy.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { createUrlGuard, type ResolvedAddress } from '../../src/fetch/url-guard.ts';
import { createHttpFetcher, type HttpFetcher, type HttpFetchOptions } from '../../src/fetch/http-fetch.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';

// A self-signed certificate for "tls.test", valid until 2126 (made with openssl req -x509).
const CERT = readFileSync(new URL('./fixtures/tls/tls-test.crt', import.meta.url));
const KEY = readFileSync(new URL('./fixtures/tls/tls-test.key', import.meta.url));

const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
  if (hostname.endsWith('.test')) return [{ address: '127.0.0.2', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

const fetchers: HttpFetcher[] = [];
const fetcher = (options: Omit<HttpFetchOptions, 'guard'> = {}) => {
  const f = createHttpFetcher({
    guard: createUrlGuard({ policy: createAddressPolicy(['127.0.0.2/32']), resolver }),
    ...options,
  });
  fetchers.push(f);
  return f;
};
const get = (url: string, options?: Omit<HttpFetchOptions, 'guard'>, signal = AbortSignal.timeout(5000)) =>
  fetcher(options).fetch(new URL(url), signal);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as DomainError,
  );

let site: FixtureServer;
beforeAll(async () => {
  site = await startFixtureServer({
    '/text': { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'plain text' },
    '/megabyte': { headers: { 'content-type': 'text/plain' }, body: Buffer.alloc(1024 * 1024, 'm') },
    '/not-modified': { status: 304 },
    '/choices': { status: 300, headers: { location: '/text' } },
    '/server-error': { status: 503, body: 'down' },
    '/to-named': (_req, res) => {
      res.writeHead(302, { location: `http://named.test:${site.port}/text#frag` });
      res.end();
    },
    '/three-codings': { headers: { 'content-encoding': 'gzip, br, deflate' }, body: 'x' },
  });
});
afterAll(async () => {
  await Promise.all(fetchers.map((f) => f.close()));
  await site.close();
});

describe('http fetch', () => {
  it('returns status, final URL, content type and body, and sends sane headers', async () => {
    const res = await get(site.url('/text'));
    expect(res).toMatchObject({
      url: site.url('/text'),
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      truncated: false,
    });
    expect(Buffer.from(res.body).toString()).toBe('plain text');
    const seen = site.requests.at(-1)!;
    expect(seen.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(seen.headers['user-agent']).toMatch(/Scout/);
  });

  it('follows a redirect to a host name through the guarded lookup, keeping the fragment', async () => {
    const res = await get(site.url('/to-named'));
    expect(res.url).toBe(`http://named.test:${site.port}/text#frag`);
    expect(site.requests.at(-1)!.headers.host).toBe(`named.test:${site.port}`);
  });

  it('stops reading at an injected wire cap and closes the connection', async () => {
    const index = site.sockets.length;
    const res = await get(site.url('/megabyte'), { maxWireBytes: 64 * 1024 });
    expect(res.body.length).toBe(64 * 1024);
    expect(res.truncated).toBe(true);
    await site.whenSocketCloses(index);
    expect(site.socketClosed(index)).toBe(true);
  });

  it('answers 502 for 3xx that is not a redirect and for 5xx', async () => {
    expect((await failure(get(site.url('/not-modified')))).message).toBe('origin answered 304 (Not Modified)');
    expect((await failure(get(site.url('/choices')))).message).toBe('origin answered 300 (Multiple Choices)');
    const e = await failure(get(site.url('/server-error')));
    expect([e.kind, e.message]).toEqual(['upstream', 'origin answered 503 (Service Unavailable)']);
  });

  it('answers 502 for more than two content codings', async () => {
    expect((await failure(get(site.url('/three-codings')))).kind).toBe('upstream');
  });

  it('turns an abort into the abort reason, or into a timeout', async () => {
    const controller = new AbortController();
    controller.abort(new DomainError('timeout', 'custom deadline message'));
    expect((await failure(get(site.url('/text'), {}, controller.signal))).message).toBe('custom deadline message');
    const plain = new AbortController();
    plain.abort();
    expect((await failure(get(site.url('/text'), {}, plain.signal))).kind).toBe('timeout');
  });
});

describe('http fetch over TLS', () => {
  let server: https.Server;
  let port = 0;
  const sni: (string | undefined)[] = [];
  beforeAll(async () => {
    server = https.createServer({ cert: CERT, key: KEY }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('secure hello');
    });
    server.on('secureConnection', (socket) =>
      sni.push((socket as unknown as { servername?: string | false }).servername || undefined),
    );
    server.on('tlsClientError', () => {});
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

  it('connects to the pinned address with the host name as SNI and verifies the certificate', async () => {
    const res = await get(`https://tls.test:${port}/`, { ca: CERT });
    expect(Buffer.from(res.body).toString()).toBe('secure hello');
    expect(sni.at(-1)).toBe('tls.test');
  });

  it('answers 502 naming the TLS problem', async () => {
    const untrusted = await failure(get(`https://tls.test:${port}/`));
    expect([untrusted.kind, untrusted.message]).toEqual([
      'upstream',
      `TLS connection to tls.test:${port} failed: its certificate is not trusted`,
    ]);
    const mismatch = await failure(get(`https://other.test:${port}/`, { ca: CERT }));
    expect(mismatch.message).toBe(
      `TLS connection to other.test:${port} failed: its certificate does not match the host name`,
    );
  });
});
