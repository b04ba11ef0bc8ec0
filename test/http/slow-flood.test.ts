import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { openRaw, parseResponse, within, type RawSocket } from './raw-socket.ts';

// The flood's 250 connections are opened before either timeout can end one (a second or two
// with both cores busy; with 1 s and 2 s, admitted sockets timed out and freed slots while the
// rest were still opening, issue 24): the counts below assume it.
const HEADERS_MS = 10_000;
const REQUEST_MS = 20_000;
const PER_ADDRESS = 100;
const FLOOD_FROM = '127.0.0.3';
const SLOW_BODIES = 50;
const SLOW_HEADERS = 200;
// Bounds far from the expected values, for the machine may be busy (issue 24): another
// client is answered in well under a second, and is allowed 5 s; the flood, which trickles
// until the test stops it, is closed by the timeouts in about 21 s and allowed 60 s.
const PROMPT_MS = 5000;
const PATIENCE_MS = 60_000;

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({
    SCOUT_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
    SCOUT_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
    SCOUT_HTTP_MAX_CONNECTIONS_PER_IP: String(PER_ADDRESS),
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_LOG_LEVEL: 'warn',
  });
});
afterAll(() => t.close());

/** Writes one byte to every open flood socket every `everyMs`, until stopped. */
function trickleAll(sockets: RawSocket[], everyMs: number): () => void {
  const timer = setInterval(() => {
    for (const c of sockets) if (!c.isClosed() && !c.socket.destroyed) c.socket.write('a');
  }, everyMs);
  return () => clearInterval(timer);
}

describe('a flood of slow clients from one address', () => {
  it('leaves other clients served, and every flood socket is closed within the timeouts', async () => {
    const head = `POST /v1/search HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"`;
    const bodies: RawSocket[] = [];
    for (let i = 0; i < SLOW_BODIES; i++) {
      const c = await openRaw(t.baseUrl, { localAddress: FLOOD_FROM });
      c.socket.write(head);
      bodies.push(c);
    }
    const headers: RawSocket[] = [];
    for (let i = 0; i < SLOW_HEADERS; i++) {
      const c = await openRaw(t.baseUrl, { localAddress: FLOOD_FROM });
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\nX-Slow: ');
      headers.push(c);
    }
    const flood = [...bodies, ...headers];
    const stop = trickleAll(flood, 200);
    try {
      // While the flood is on, a client from another address is answered promptly.
      for (const path of ['/healthz', '/v1/search?q=scout']) {
        const started = performance.now();
        const res = await within(
          fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${t.key}` } }),
          PROMPT_MS,
          `GET ${path} during the flood`,
        );
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        expect(performance.now() - started).toBeLessThan(PROMPT_MS);
      }
      const search = await within(
        t.request('POST', '/v1/search', { body: { query: 'scout' } }),
        PROMPT_MS,
        'POST /v1/search during the flood',
      );
      expect(search.status).toBe(200);

      // Every flood socket is gone within the request timeout, a check interval and the 1 s
      // discard after a 408 (the 503s linger at most 1 s, the slow headers end at 10 s).
      await within(Promise.all(flood.map((c) => c.closed)), PATIENCE_MS, 'close of the whole flood');
    } finally {
      stop();
    }

    const answers = (list: RawSocket[]) => list.map((c) => parseResponse<ErrorBody>(c.received()).body.error.message);
    // The slow bodies came first and were all admitted: each ran into the request timeout.
    for (const m of answers(bodies)) expect(m).toMatch(/^the request body was not received within 20 s/);
    // Of the slow headers, the address's remaining 50 slots ran into the headers timeout;
    // the rest were refused at once, before any of their bytes were read.
    const counts = new Map<string, number>();
    for (const m of answers(headers)) counts.set(m, (counts.get(m) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({
      'the request headers were not received within 10 s': PER_ADDRESS - SLOW_BODIES,
      [`too many open connections from your address (at most ${PER_ADDRESS}); reuse connections (keep-alive) or open fewer at once, then retry`]:
        SLOW_HEADERS - (PER_ADDRESS - SLOW_BODIES),
    });

    // The address is served again once its sockets are gone.
    const again = await openRaw(t.baseUrl, { localAddress: FLOOD_FROM });
    again.socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    await within(again.closed, PATIENCE_MS, 'answer after the flood');
    expect(parseResponse(again.received()).status).toBe(200);
  });
});
