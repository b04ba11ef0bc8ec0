import { afterEach, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src/schemas/search.ts';
import {
  freePort,
  killStarted,
  scoutEnv,
  spawnScout,
  track,
  waitFor,
  within,
  type ScoutProcess,
} from '../helpers/scout-process.ts';
import { budgetUsed, firstKey, searchOk } from '../helpers/served-scout.ts';
import { openRaw, parseResponses, type RawSocket } from './raw-socket.ts';

// A real `scout serve` on loopback, stopped by SIGTERM while clients hold connections open.
// Expected exits take about a second; every bound here is at least 10x that.

afterEach(() => killStarted());
const open: RawSocket[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.socket.destroy();
});

async function startScout(extra: Record<string, string> = {}) {
  const port = await freePort();
  const env = scoutEnv(port, extra);
  const p = spawnScout('node', env);
  await waitFor(60_000, 'Scout listening', () => (p.stdout().includes('Scout listening') ? true : undefined));
  track(p);
  const key = firstKey(env.SCOUT_DATA_DIR!);
  return { p, port, key, dataDir: env.SCOUT_DATA_DIR!, baseUrl: `http://127.0.0.1:${port}` };
}

async function raw(baseUrl: string): Promise<RawSocket> {
  const c = await openRaw(baseUrl, { localAddress: '127.0.0.5' });
  open.push(c);
  return c;
}

const exitedCleanly = (p: ScoutProcess) => within(20_000, 'the server to exit after SIGTERM', p.exited);

describe('SIGTERM with connections held open', () => {
  it('closes a silent and a header-trickling connection at once, returns the budget lease and exits 0', async () => {
    const s = await startScout();
    for (const q of ['one', 'two', 'three']) await searchOk(s.port, s.key, q);
    const silent = await raw(s.baseUrl);
    const trickling = await raw(s.baseUrl);
    void trickling.trickle(`GET /healthz HTTP/1.1\r\nHost: a\r\nX-Slow: ${'x'.repeat(1000)}`, 200);
    // A keep-alive connection that was served and now waits.
    const idle = await raw(s.baseUrl);
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n');
    await idle.waitFor(/\r\n\r\n/, 10_000);

    s.p.child.kill('SIGTERM');
    expect(await exitedCleanly(s.p)).toEqual({ code: 0, signal: null });
    expect([silent.isClosed(), trickling.isClosed(), idle.isClosed()]).toEqual([true, true, true]);
    expect(budgetUsed(s.dataDir)).toBe(3);
  }, 90_000);

  it('lets a request in flight finish, answers it with Connection: close, then exits', async () => {
    const s = await startScout();
    const body = JSON.stringify({ query: 'in flight' });
    const inFlight = await raw(s.baseUrl);
    // Headers and part of the body: the request is in flight when the signal comes (the
    // 100 Continue says the server has read the headers).
    inFlight.socket.write(
      `POST /v1/search HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${s.key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await inFlight.waitFor(/^HTTP\/1\.1 100 Continue\r\n\r\n/, 20_000);
    const marker = await raw(s.baseUrl);

    s.p.child.kill('SIGTERM');
    // The silent marker closing says the close has begun; then the rest of the body.
    await within(20_000, 'the silent connection to be closed', marker.closed);
    expect(inFlight.isClosed()).toBe(false);
    inFlight.socket.write(body.slice(5));
    await within(20_000, 'the answer and the close', inFlight.closed);
    const res = parseResponses<SearchResponse>(inFlight.received()).at(-1)!;
    expect(res.status).toBe(200);
    expect(res.body.results).toBeInstanceOf(Array);
    expect(res.headers.connection).toBe('close');
    expect(await exitedCleanly(s.p)).toEqual({ code: 0, signal: null });
    expect(budgetUsed(s.dataDir)).toBe(1);
  }, 90_000);

  it('cuts a request still in flight after SCOUT_HTTP_SHUTDOWN_DRAIN_MS and exits 0', async () => {
    const s = await startScout({ SCOUT_HTTP_SHUTDOWN_DRAIN_MS: '500' });
    const stuck = await raw(s.baseUrl);
    // A body that never arrives whole (the request timeout is 30 s: not what ends it here).
    stuck.socket.write(
      `POST /v1/search HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${s.key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n{"query"`,
    );
    await stuck.waitFor(/^HTTP\/1\.1 100 Continue\r\n\r\n/, 20_000);

    s.p.child.kill('SIGTERM');
    expect(await exitedCleanly(s.p)).toEqual({ code: 0, signal: null });
    expect(stuck.isClosed()).toBe(true);
    expect(s.p.stdout()).toContain('shutdown: requests still in flight after the drain');
  }, 90_000);
});
