import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HALF_CLOSED_PROBE_MS } from '../../src/http/half-closed-clients.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { openRaw, within, type RawSocket } from './raw-socket.ts';
import { defined } from '../helpers/defined.ts';

// A client that sends its request and then shuts its write side (curl --http1.0-style
// clients, some proxies) must still get its answer on every route.

let t: TestScout | undefined;
let origin: FixtureServer | undefined;
const open: RawSocket[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.socket.destroy();
  await t?.close();
  await origin?.close();
  t = undefined;
  origin = undefined;
});

async function halfClosed(request: string) {
  const c = await openRaw(t!.baseUrl);
  open.push(c);
  c.socket.end(request);
  await within(c.closed, 10_000, 'the server to answer and close');
  // Interim 102s (probes of a client whose FIN came, half-closed-clients.ts) come first.
  const text = c.received().replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n\r\n)+/, '');
  const status = Number(/^HTTP\/1\.[01] (\d{3}) /.exec(text)?.[1] ?? 0);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  return { status, body: /content-type: application\/json/i.test(text) ? JSON.parse(body) : body };
}

describe('a client that half-closes after its request', () => {
  it('gets an answer from every kind of route', async () => {
    t = await startTestScout();
    const auth = `Authorization: Bearer ${t.key}\r\n`;
    const post = (path: string, body: string) =>
      `POST ${path} HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

    expect((await halfClosed('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n')).status).toBe(200);
    expect((await halfClosed('GET /docs/getting-started.md HTTP/1.0\r\n\r\n')).status).toBe(200);
    expect((await halfClosed('GET /docs/missing.md HTTP/1.1\r\nHost: a\r\n\r\n')).status).toBe(404);
    expect((await halfClosed(post('/v1/search', '{"query":"scout"}'))).status).toBe(200);
    // A private address: refused by the fetch pipeline after its DNS step, asynchronously.
    const refused = await halfClosed(post('/v1/fetch', '{"url":"http://127.0.0.1:1/"}'));
    expect(refused.status).toBe(403);
    expect(refused.body.error.status).toBe(403);
    expect((await halfClosed(post('/v1/fetch', '{"url":"not a url"}'))).status).toBe(400);
    expect((await halfClosed(`GET /v1/usage HTTP/1.1\r\nHost: a\r\n${auth}\r\n`)).status).toBe(200);
    expect((await halfClosed('GET /openapi.json HTTP/1.1\r\nHost: a\r\n\r\n')).status).toBe(200);
  });
});

describe('a half-closed client whose answer takes a while', () => {
  const PAGE =
    '<html><head><title>Slow</title></head><body><main><p>The slow page arrived whole.</p></main></body></html>';
  async function slowFetch(version: '1.0' | '1.1') {
    const held: ServerResponse[] = [];
    origin = await startFixtureServer({ '/slow': (_req, res) => void held.push(res) });
    t = await startTestScout({ SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
    const body = JSON.stringify({ url: origin.url('/slow') });
    const c = await openRaw(t.baseUrl);
    open.push(c);
    c.socket.end(
      `POST /v1/fetch HTTP/${version}\r\nHost: a\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    for (let i = 0; i < 2000 && held.length === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
    expect(held.length).toBe(1);
    return {
      c,
      release: () => defined(held[0], 'a held response').writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
    };
  }

  it('HTTP/1.1: is asked with interim 102s whether it is still there, skips them and gets its answer', async () => {
    const { c, release } = await slowFetch('1.1');
    await c.waitFor(/^HTTP\/1\.1 102 Processing\r\n/, 20_000);
    release();
    await within(c.closed, 20_000, 'the answer and the close');
    const final = c.received().replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n\r\n)+/, '');
    expect(final).toMatch(/^HTTP\/1\.1 200 /);
    expect(final).toContain('The slow page arrived whole.');
  });

  it('HTTP/1.0: gets no 1xx (RFC 9110 forbids them), only its answer', async () => {
    const { c, release } = await slowFetch('1.0');
    // Several probe periods pass with the answer held: none may write a 102 to this client.
    await new Promise((r) => setTimeout(r, 4 * HALF_CLOSED_PROBE_MS));
    release();
    await within(c.closed, 20_000, 'the answer and the close');
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(c.received()).not.toContain(' 102 ');
    expect(c.received()).toContain('The slow page arrived whole.');
  });
});
