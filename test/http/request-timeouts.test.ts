import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { hasResponses, openRaw, parseResponse, parseResponses, within } from './raw-socket.ts';

// Small timeouts so slow clients expire quickly; Node checks for them every 250 ms here.
const HEADERS_MS = 1000;
const REQUEST_MS = 2000;
// Waits for what must come (an answer, a close that only a timeout makes): far above what it
// takes, for the machine may be busy (issue 24). A connection no timeout ends stays open.
const PATIENCE_MS = 15_000;

let t: TestScout;
let origin: FixtureServer;
beforeAll(async () => {
  origin = await startFixtureServer({
    // Answers after the request timeout: time spent answering must not count.
    '/late': (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late but fine'), REQUEST_MS + 500);
    },
  });
  t = await startTestScout({
    SCOUT_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
    SCOUT_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
    SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
    SCOUT_HTTP_MAX_REQUESTS_PER_SOCKET: '3',
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_FETCH_TIMEOUT_MS: '30000', // far above the 2.5 s the /late page takes
  });
});
afterAll(async () => {
  await t.close();
  await origin.close();
});

const post = (headers: string) =>
  `POST /v1/search HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\n${headers}\r\n`;

describe('slow headers', () => {
  it('headers trickled past the headers timeout get a 408 in the Error shape, and the connection is closed', async () => {
    const c = await openRaw(t.baseUrl);
    void c.trickle(`GET /healthz HTTP/1.1\r\nHost: a\r\nX-Slow: ${'x'.repeat(100)}`, 100);
    const ms = await within(c.closed, PATIENCE_MS, 'close after slow headers');
    expect(ms).toBeGreaterThanOrEqual(HEADERS_MS - 50);
    const res = parseResponse(c.received());
    expect(res.status).toBe(408);
    expectShape(ErrorBody, res.body);
    expect(res.body.error).toEqual({ status: 408, message: 'the request headers were not received within 1 s' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.connection).toBe('close');
  });

  it('a connection that sends nothing is closed within the headers timeout', async () => {
    const c = await openRaw(t.baseUrl);
    const ms = await within(c.closed, PATIENCE_MS, 'close of a silent connection');
    expect(ms).toBeGreaterThanOrEqual(HEADERS_MS - 50);
    expect(parseResponse(c.received()).status).toBe(408);
  });
});

describe('slow bodies', () => {
  // Bodies that take the client over 30 s to trickle (a character every 100 ms).
  it.each([
    ['with Content-Length', 'Content-Length: 400\r\n', `{"query":"${'a'.repeat(400)}`],
    ['chunked', 'Transfer-Encoding: chunked\r\n', '1\r\n{\r\n'.repeat(60)],
  ])(
    'a body trickled past the request timeout (%s) is 408 in the Error shape, then the connection is closed',
    async (_name, framing, body) => {
      const c = await openRaw(t.baseUrl);
      c.socket.write(post(framing));
      const sending = c.trickle(body, 100);
      const text = await c.waitFor(hasResponses(1), PATIENCE_MS);
      const answeredMs = performance.now() - c.openedAt;
      expect(answeredMs).toBeGreaterThanOrEqual(REQUEST_MS - 50);
      const res = parseResponse(text);
      expect(res.status).toBe(408);
      expectShape(ErrorBody, res.body);
      expect(res.body.error).toEqual({
        status: 408,
        message: 'the request body was not received within 2 s; send the whole request within 2 s of its first byte',
      });
      expect(res.headers.connection).toBe('close');
      // A short discard at most (1 s), then the server closes although the client still sends
      // (for about 28 s more): the close cut the trickle, the client did not finish it.
      await within(c.closed, PATIENCE_MS, 'close after the 408');
      expect(await sending).toBe(false);
      // The request's own id: the same as in its log line.
      const id = res.headers['x-request-id'];
      expect(t.logs.some((l) => l.request_id === id && l.msg === 'request refused' && l.status === 408)).toBe(true);
    },
  );

  it('a slow body that completes within the request timeout is served', async () => {
    const c = await openRaw(t.baseUrl);
    const body = '{"query":"scout"}';
    c.socket.write(post(`Content-Length: ${body.length}\r\nConnection: close\r\n`));
    await c.trickle(body, 20); // about 0.35 s in all, far within the 2 s
    await within(c.closed, PATIENCE_MS, 'answer');
    expect(parseResponse(c.received()).status).toBe(200);
  });

  it('time spent answering is not counted: a fetch slower than the request timeout is still answered', async () => {
    const started = performance.now();
    const res = await t.request<FetchResponse>('POST', '/v1/fetch', { body: { url: origin.url('/late') } });
    expect(performance.now() - started).toBeGreaterThan(REQUEST_MS);
    expect(res.status).toBe(200);
    expect(res.body.content).toContain('late but fine');
  });
});

describe('keep-alive limits', () => {
  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const c = await openRaw(t.baseUrl);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n');
    await c.waitFor(hasResponses(1), PATIENCE_MS);
    const answeredMs = performance.now() - c.openedAt;
    const closedMs = await within(c.closed, PATIENCE_MS, 'keep-alive close');
    expect(closedMs - answeredMs).toBeGreaterThanOrEqual(400);
    expect(parseResponse(c.received()).status).toBe(200);
  });

  it('a connection serves at most SCOUT_HTTP_MAX_REQUESTS_PER_SOCKET requests; the last says Connection: close', async () => {
    const c = await openRaw(t.baseUrl);
    for (let i = 1; i <= 3; i++) {
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n');
      await c.waitFor(hasResponses(i), PATIENCE_MS);
    }
    const answers = parseResponses(c.received());
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers.connection)).toEqual(['keep-alive', 'keep-alive', 'close']);
    await within(c.closed, PATIENCE_MS, 'close after the last allowed request');
  });
});
