import { afterEach, describe, expect, it } from 'vitest';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { openRaw, within, type RawSocket } from './raw-socket.ts';

// A client that sends its request and then shuts its write side (curl --http1.0-style
// clients, some proxies) must still get its answer on every route.

let t: TestScout | undefined;
const open: RawSocket[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.socket.destroy();
  await t?.close();
  t = undefined;
});

async function halfClosed(request: string) {
  const c = await openRaw(t!.baseUrl);
  open.push(c);
  c.socket.end(request);
  await within(c.closed, 10_000, 'the server to answer and close');
  const text = c.received();
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
