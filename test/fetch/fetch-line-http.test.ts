import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { only } from '../helpers/defined.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestScout, type ApiResponse, type TestScout } from '../helpers/test-scout.ts';

/**
 * The fetch line on a real Scout over loopback HTTP (issue 23): bounded by time, not by a
 * count of the slots, and shared fairly between API keys. The origin holds every answer
 * until the test releases it, and the test waits for Scout's own count of fetches running
 * and waiting (Scout.fetchLine), so nothing depends on timing; the deadline is 60 s so the
 * line's time bound (30 s) is far from anything the test waits for.
 */

let t: TestScout;
let origin: FixtureServer;
let loopback: FixtureServer;
const held: { who: string; res: ServerResponse }[] = [];

const PAGE =
  '<html><head><title>Small page</title></head><body><main><h1>Small page</h1><p>A short article, the whole of the page.</p></main></body></html>';

const release = (who?: string) => {
  const i = who === undefined ? 0 : held.findIndex((h) => h.who === who);
  if (i < 0 || held.length === 0) return;
  const { res } = only(held.splice(i, 1), 'held response');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
};

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 4000 && !cond(); i += 1) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error(`never happened: ${what}`);
}

const line = () => t.scout.fetchLine();
const fetchAs = (key: string, who: string): Promise<ApiResponse<FetchResponse | ErrorBody>> =>
  t.request('POST', '/v1/fetch', { key, body: { url: origin.url(`/held?who=${who}`) } });

beforeAll(async () => {
  origin = await startFixtureServer({
    '/held': (req: IncomingMessage, res: ServerResponse) => {
      held.push({ who: new URL(req.url ?? '/', 'http://x').searchParams.get('who') ?? '', res });
    },
  });
  loopback = await startFixtureServer(
    { '/page': { headers: { 'content-type': 'text/html' }, body: PAGE } },
    { host: '127.0.0.1' },
  );
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_FETCH_TIMEOUT_MS: '60000',
  });
});
afterAll(async () => {
  while (held.length > 0) release();
  await t.close();
  await origin.close();
  await loopback.close();
});

describe('the fetch line over HTTP', () => {
  it('a burst of 20 fetches from one key at the default settings all wait their turn: none is 503', async () => {
    const answers = Array.from({ length: 20 }, (_, i) => fetchAs(t.key, `burst-${i}`));
    const statuses: number[] = [];
    for (const a of answers) void a.then((r) => statuses.push(r.status));
    // Every fetch is in Scout (2 at the origin, SCOUT_FETCH_PER_HOST) or answered, before any is released.
    await until(
      () => held.length === 2 && line().active + line().queued + statuses.length === 20,
      'all 20 fetches in Scout',
    );
    expect(statuses).toEqual([]);
    await until(() => {
      release();
      return statuses.length === 20;
    }, 'all 20 answered');
    expect(statuses).toEqual(Array(20).fill(200));
    expect(line()).toEqual({ active: 0, queued: 0 });
  });

  it('a key with fetches waiting behind two busy keys gets the next free slot, and a full line still takes it', async () => {
    await t.restart({ SCOUT_FETCH_CONCURRENCY: '3', SCOUT_FETCH_QUEUE: '3', SCOUT_FETCH_PER_HOST: '64' });
    const [keyA, keyB, keyC] = [
      t.key,
      (await t.scout.keys.create('busy b')).key,
      (await t.scout.keys.create('third')).key,
    ];
    // a holds two slots and b one; a and b fill the line (SCOUT_FETCH_QUEUE, 3).
    const running = [fetchAs(keyA, 'a1'), fetchAs(keyA, 'a2'), fetchAs(keyB, 'b1')];
    await until(() => held.length === 3, 'three fetches at the origin');
    const waiting = [fetchAs(keyA, 'a3'), fetchAs(keyA, 'a4'), fetchAs(keyB, 'b2')] as const;
    await until(() => line().queued === 3, 'three fetches in line');
    // The third key's fetch takes the place of a's latest (a waits most), which is 503.
    const third = fetchAs(keyC, 'c1');
    const pushed = await waiting[1];
    expect(pushed.status).toBe(503);
    expect((pushed.body as ErrorBody).error.message).toMatch(
      /this caller had the most of them, so its latest gave its place to another caller's: send fewer fetches at once; retry in \d+ s$/,
    );
    expect(Number(pushed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(line()).toEqual({ active: 3, queued: 3 });
    // A slot frees: the third key, holding none, goes before a3 and b2, which came first.
    release('a1');
    await until(() => held.length === 3, 'the next fetch at the origin');
    expect(held.map((h) => h.who).sort()).toEqual(['a2', 'b1', 'c1']);
    release('c1');
    expect((await third).status).toBe(200);
    await until(() => {
      release();
      return line().active + line().queued === 0 && held.length === 0;
    }, 'every fetch answered');
    const statuses = await Promise.all([...running, waiting[0], waiting[2]].map(async (r) => (await r).status));
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  it('127.0.0.1 stays refused while 127.0.0.2 is allowed', async () => {
    const res = await t.request('POST', '/v1/fetch', { body: { url: loopback.url('/page') } });
    expect(res.status).toBe(403);
  });
});
