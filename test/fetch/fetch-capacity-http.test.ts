import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestScout, type ApiResponse, type TestScout } from '../helpers/test-scout.ts';

/**
 * The fetch limits seen over HTTP on a real Scout: 503 + Retry-After in the Error shape (with
 * x-request-id, checked by t.request for every response), the queue, and per-host politeness.
 * The origins hold every response until the test releases it, so nothing depends on timing
 * except the one deadline test, whose margin is half a deadline.
 */

let t: TestScout;
const origins: FixtureServer[] = [];
const held: { host: string; res: ServerResponse }[] = [];
let inFlight = new Map<string, number>();
let peak = new Map<string, number>();

async function heldOrigin(host: string): Promise<FixtureServer> {
  const server = await startFixtureServer(
    {
      '/held': (_req, res) => {
        inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
        peak.set(host, Math.max(peak.get(host) ?? 0, inFlight.get(host)!));
        res.once('close', () => inFlight.set(host, inFlight.get(host)! - 1));
        held.push({ host, res });
      },
    },
    { host },
  );
  origins.push(server);
  return server;
}

const release = (n = held.length) => {
  for (const { res } of held.splice(0, n))
    res.writeHead(200, { 'content-type': 'text/plain' }).end('released by the test');
};

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i += 1) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error(`never happened: ${what}`);
}

const fetchPage = (url: string) => t.request<FetchResponse | ErrorBody>('POST', '/v1/fetch', { body: { url } });

function expectCapacityRefusal(res: ApiResponse<FetchResponse | ErrorBody>, message: string): void {
  expect(res.status).toBe(503);
  // A 503: request() has checked the body against ErrorBody.
  const { error } = res.body as ErrorBody;
  expect(error.message).toContain(message);
  expect(error.message).toMatch(/retry in \d+ s$/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(error.message).toContain(`retry in ${retryAfter} s`);
}

let a: FixtureServer;
let b: FixtureServer;
beforeAll(async () => {
  a = await heldOrigin('127.0.0.2');
  b = await heldOrigin('127.0.0.3');
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/31',
    SCOUT_FETCH_CONCURRENCY: '1',
    SCOUT_FETCH_QUEUE: '1',
    SCOUT_FETCH_TIMEOUT_MS: '20000',
  });
});
afterAll(async () => {
  release();
  await t.close();
  await Promise.all(origins.map((o) => o.close()));
});

describe('fetch capacity over HTTP', () => {
  it('one fetch runs, one waits, the next is 503 with Retry-After; the waiting one runs when a slot frees', async () => {
    const first = fetchPage(a.url('/held'));
    await until(() => held.length === 1, 'the first fetch at the origin');
    // Of the next two, one takes the place in line and the other is refused at once.
    const [second, third] = [fetchPage(a.url('/held')), fetchPage(a.url('/held'))];
    const refused = await Promise.race([second, third]);
    expectCapacityRefusal(refused, 'fetch capacity is exhausted: 1 fetches are running and 1 waiting');
    expect(held.length).toBe(1); // neither the waiting nor the refused fetch reached the origin
    release();
    expect((await first).status).toBe(200);
    await until(() => held.length === 1, 'the waiting fetch at the origin');
    release();
    const statuses = [(await second).status, (await third).status].sort();
    expect(statuses).toEqual([200, 503]);
  });

  it('a fetch still waiting at half its deadline is 503 with Retry-After, never sent to the origin', async () => {
    await t.restart({ SCOUT_FETCH_TIMEOUT_MS: '1000' });
    const first = fetchPage(a.url('/held'));
    await until(() => held.length === 1, 'the first fetch at the origin');
    const waited = await fetchPage(b.url('/held'));
    expectCapacityRefusal(waited, 'fetch capacity stayed exhausted: this fetch waited 0.5 s (half its 1 s deadline)');
    expect(held.every((h) => h.host === '127.0.0.2')).toBe(true);
    expect((await first).status).toBe(504); // the held origin ran out the first fetch's deadline
    release();
  });

  it('requests in flight to one host are capped at SCOUT_FETCH_PER_HOST; another host is not held up', async () => {
    await t.restart({ SCOUT_FETCH_CONCURRENCY: '4', SCOUT_FETCH_QUEUE: '4', SCOUT_FETCH_PER_HOST: '1' });
    inFlight = new Map();
    peak = new Map();
    const onA = [fetchPage(a.url('/held')), fetchPage(a.url('/held')), fetchPage(a.url('/held'))];
    const onB = fetchPage(b.url('/held'));
    await until(() => held.length === 2, 'one request at each host');
    expect(held.map((h) => h.host).sort()).toEqual(['127.0.0.2', '127.0.0.3']);
    for (let done = 0; done < 3; done += 1) {
      await until(() => held.some((h) => h.host === '127.0.0.2'), 'the next request to 127.0.0.2');
      release();
    }
    const results = await Promise.all([...onA, onB]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(peak.get('127.0.0.2')).toBe(1);
  });
});
