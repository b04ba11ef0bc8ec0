import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { defined } from '../helpers/defined.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { waitFor } from '../helpers/scout-process.ts';
import {
  createKey,
  faultTargets,
  hold,
  sponsoredOf,
  startFaultRig,
  type Answer,
  type CreatedKey,
  type FaultRig,
} from './replica-faults-kit.ts';

/**
 * A real Scout process (postgres+redis mode) whose PostgreSQL and Redis are cut, blackholed
 * or stalled by TCP proxies, while the test reads the real services directly.
 */

const targets = faultTargets();

// The log lines of src/store/redis/open-redis.ts and redis-rate-limiter.ts (via outage-log.ts).
const REDIS_LOST = 'Redis connection lost or refused; retrying in the background';
const REDIS_RESTORED = 'Redis connection restored';
const LIMITER_LOCAL = 'Redis unreachable: rate limits are per replica until it returns';
const LIMITER_SHARED = 'Redis reachable again: rate limits are shared across replicas';
const REDIS_MESSAGES = [REDIS_LOST, REDIS_RESTORED, LIMITER_LOCAL, LIMITER_SHARED] as const;
type RedisMessage = (typeof REDIS_MESSAGES)[number];

const KEY_STORE_DOWN = { error: { status: 503, message: 'the key store is unavailable; retry shortly' } };
// src/store/create-stores.ts, the key store's LISTEN connection.
const LISTENER_LOST = 'PostgreSQL key-change listener lost: every key is verified against PostgreSQL until it is back';
const HEALTH_DOWN = { error: { status: 503, message: 'backend unavailable: the store does not answer' } };

// Waits for what must happen (a log line, a reconnect, a batch written): each takes about a
// second; 20 s is far above that, for the machine may be busy (issue 24).
const PATIENCE_MS = 20_000;
const RPM = 5;
const REDIS_MODES = ['refuse', 'blackhole', 'stall'] as const;
const KEY_NAMES = ['warm', ...REDIS_MODES.flatMap((m) => [`${m}-out`, `${m}-seeded`]), 'pg-fresh', 'pg-cached', 'ad-a'];

const BID = 100_000;
const campaign = (url: string) => ({
  advertiser: 'Acme',
  title: 'Acme trail running shoes',
  url,
  content: 'Light shoes for long runs.',
  keywords: ['running shoes'],
  bid_micros: BID,
  budget_micros: 10_000_000,
});

describe.skipIf(!targets)('a Scout replica when PostgreSQL or Redis goes away', () => {
  let rig: FaultRig;
  let landing: FixtureServer;
  let campaignId = '';
  const keys: Record<string, CreatedKey> = {};
  const key = (name: string): CreatedKey => defined(keys[name], `the key ${name}`);

  const bucket = (k: CreatedKey) => `${rig.prefix}rl:${k.id}`;
  const redisCounts = () =>
    Object.fromEntries(REDIS_MESSAGES.map((m) => [m, rig.count(m)])) as Record<RedisMessage, number>;
  const report = async () => {
    const r = await rig.cli(['campaigns', 'report', '--json']);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout).campaigns as { id: string }[]).find((c) => c.id === campaignId) as Record<
      string,
      unknown
    >;
  };
  /** A bucket the real Redis holds as spent for the next two minutes (a TAT that far ahead, on Redis's clock). */
  const exhaustInRedis = async (k: CreatedKey) => {
    const [s, us] = await rig.redis.time();
    const nowMs = Number(s) * 1000 + Number(us) / 1000;
    await rig.redis.set(bucket(k), String(nowMs + 120_000), 'PX', 120_000);
  };
  const expectOk = (a: Answer, what: string) => expect(a.status, `${what}: ${JSON.stringify(a.body)}`).toBe(200);
  // create-sponsored's onError, which compose/assemble-sponsored.ts logs for stage and event-write failures alike.
  const failedWrites = () => rig.count('sponsored results: storage failed');

  beforeAll(async () => {
    landing = await startFixtureServer({
      '/shoes': {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><head><title>Acme shoes</title></head><body><main><h1>Trail running shoes</h1><p>Light shoes for long runs on rough trails.</p></main></body></html>',
      },
    });
    // Keys and the campaign exist before the server starts, so no NOTIFY reaches it later
    // (one would clear its remembered keys) and it never creates a first key of its own.
    rig = await startFaultRig(targets!, {
      env: { SCOUT_RATE_LIMIT_RPM: String(RPM) },
      prepare: async (cli) => {
        for (const name of KEY_NAMES) keys[name] = await createKey(cli, name);
        const created = await cli(
          ['campaigns', 'create', '--file', '-', '--json'],
          JSON.stringify(campaign(landing.url('/shoes'))),
        );
        expect(created.code, created.stderr).toBe(0);
        campaignId = JSON.parse(created.stdout).id;
      },
    });
  });

  afterAll(async () => {
    await rig?.close();
    await landing?.close();
  });

  it('starts in postgres+redis mode and keeps rate limits in Redis under its prefix', async () => {
    expect(
      rig
        .logs()
        .filter((l) => l.msg === 'storage')
        .map((l) => l.mode),
    ).toEqual(['postgres+redis']);
    const a = await rig.search(key('warm').key, 'warm up');
    expectOk(a, 'search');
    expect(a.headers.get('ratelimit-limit')).toBe(String(RPM));
    expect(a.headers.get('ratelimit-remaining')).toBe(String(RPM - 1));
    // One request's worth of GCRA debt: 60 s / RPM.
    const pttl = await rig.redis.pttl(bucket(key('warm')));
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(60_000 / RPM);
  });

  it.each(REDIS_MODES)(
    'Redis %s: searches answer 200 on a per-replica limiter, one log line each way, shared again after restore',
    async (mode) => {
      const out = key(`${mode}-out`);
      const seeded = key(`${mode}-seeded`);
      const before = redisCounts();
      if (mode === 'stall') rig.redisProxy.stall();
      else rig.redisProxy.cut(mode);
      // Spent in the real Redis, which the server cannot reach now.
      await exhaustInRedis(seeded);

      // The fallback bucket starts full: RPM searches pass, the next is refused by this replica's own limiter.
      for (let i = 0; i < RPM; i++)
        expectOk(await rig.search(out.key, `outage ${mode} ${i}`), `search ${i} during the outage`);
      const refused = await rig.search<ErrorBody>(out.key, `outage ${mode} over`);
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toMatch(
        new RegExp(`^rate limit of ${RPM} requests per minute exceeded; retry in \\d+ s$`),
      );
      // Spent in Redis, untouched here: the replica does not see Redis's state while it is away.
      expectOk(await rig.search(seeded.key, `outage ${mode} seeded`), 'search of the key spent in Redis');
      for (let i = 0; i < 10; i++)
        expectOk(await rig.request('GET', '/v1/usage', { key: out.key }), `usage ${i} during the outage`);
      expect(await rig.redis.exists(bucket(out))).toBe(0);

      // Both outage lines come (the stalled connection is dropped by its socket timeout, ~1 s), once each.
      await waitFor(PATIENCE_MS, 'the Redis outage to be logged', () =>
        rig.count(REDIS_LOST) > before[REDIS_LOST] ? true : undefined,
      );
      for (let i = 0; i < 5; i++)
        expectOk(await rig.request('GET', '/v1/usage', { key: out.key }), `usage ${i} after the outage was logged`);
      expect(redisCounts()).toEqual({
        ...before,
        [REDIS_LOST]: before[REDIS_LOST] + 1,
        [LIMITER_LOCAL]: before[LIMITER_LOCAL] + 1,
      });
      expect((await rig.request('GET', '/healthz')).status).toBe(200);

      rig.redisProxy.restore();
      await waitFor(PATIENCE_MS, 'Redis to be reconnected', () =>
        rig.count(REDIS_RESTORED) > before[REDIS_RESTORED] ? true : undefined,
      );
      // Redis's state counts again, without a restart: the key spent there is refused...
      const spent = await rig.search(seeded.key, `restored ${mode} seeded`);
      expect(spent.status, JSON.stringify(spent.body)).toBe(429);
      expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(50);
      // ...and the fallback's spent bucket is forgotten: the key is served and its bucket is in Redis.
      expectOk(await rig.search(out.key, `restored ${mode} out`), 'search after restore');
      expect(await rig.redis.pttl(bucket(out))).toBeGreaterThan(0);
      expect(redisCounts()).toEqual(Object.fromEntries(REDIS_MESSAGES.map((m) => [m, before[m] + 1])));
    },
  );

  it('PostgreSQL cut: an unverifiable key is 503 (never 401) and /healthz 503; the same key is served after restore, no restart', async () => {
    const fresh = key('pg-fresh');
    const cached = key('pg-cached');
    expectOk(await rig.search(cached.key, 'before the cut'), 'search before the cut');

    const listenerLost = rig.count(LISTENER_LOST);
    rig.pgProxy.cut();
    const refused = await rig.search(fresh.key, 'during the cut');
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual(KEY_STORE_DOWN);
    expect(refused.headers.get('retry-after')).toBe('5');
    const health = await rig.request('GET', '/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toEqual(HEALTH_DOWN);
    await waitFor(PATIENCE_MS, 'the key-change listener to notice the cut', () =>
      rig.count(LISTENER_LOST) > listenerLost ? true : undefined,
    );
    // Remembered keys are trusted only while the LISTEN connection is up (pg-key-store.ts);
    // the cut took it down, so the key used a moment ago is verified again, and cannot be.
    const again = await rig.search(cached.key, 'during the cut');
    expect(again.status).toBe(503);
    expect(again.body).toEqual(KEY_STORE_DOWN);
    expect(again.headers.get('retry-after')).toBe('5');

    rig.pgProxy.restore();
    const seen: number[] = [];
    await waitFor(PATIENCE_MS, 'the unseen key to be served after restore', async () => {
      const a = await rig.search(fresh.key, 'after restore');
      seen.push(a.status);
      if (a.status === 200) return true;
      await hold(200); // spaced, so a 503 after auth does not drain the key's bucket
      return undefined;
    });
    expect(seen.filter((s) => s !== 503 && s !== 200)).toEqual([]);
    expectOk(await rig.search(cached.key, 'after restore'), 'the remembered key after restore');
    expect((await rig.request('GET', '/healthz')).status).toBe(200);
  });

  // What the campaign report must show (every acknowledged event, once), and an ad not read or clicked yet.
  const expected = { impressions: 0, agent_reads: 0, clicks: 0, spend_micros: 0 };
  let target: { rec_id: string; url: string };

  /** 4 searches (4 impressions), a read and a click of `target`, all at once: every event lands in one flush interval (200 ms). */
  async function burst(round: string): Promise<void> {
    const k = await createKey(rig.cli, `ad-burst-${round}`); // a full bucket: 4 searches and 1 read
    const [searches, read, click] = await Promise.all([
      Promise.all([1, 2, 3, 4].map((i) => rig.search(k.key, `running shoes ${round} ${i}`))),
      rig.request<FetchResponse>('POST', '/v1/fetch', { key: k.key, body: { url: target.url } }),
      rig.request('GET', `/v1/r/${target.rec_id}`),
    ]);
    for (const s of searches) expectOk(s, 'sponsored search');
    expect(searches.map((s) => sponsoredOf(s).length)).toEqual([1, 1, 1, 1]);
    expectOk(read, 'read of the click URL');
    expect(read.body.meta.click_path).toBe('agent_read');
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe(landing.url('/shoes'));
    Object.assign(expected, {
      impressions: expected.impressions + 4,
      agent_reads: expected.agent_reads + 1,
      clicks: expected.clicks + 1,
      spend_micros: expected.spend_micros + BID, // the first read of a rec_id is charged the bid
    });
    target = defined(sponsoredOf(defined(searches[0], 'a first search'))[0], 'a sponsored result');
  }

  /** The report once it holds every expected event: exactly those (none lost, none counted twice by a retried batch). */
  async function expectAllCounted(): Promise<void> {
    const stored = await waitFor(PATIENCE_MS, 'the events to be written after restore', async () => {
      const r = await report();
      const done =
        (r.impressions as number) >= expected.impressions &&
        (r.clicks as number) >= expected.clicks &&
        (r.agent_reads as number) >= expected.agent_reads;
      return done ? r : undefined;
    });
    expect(stored).toMatchObject(expected);
  }

  it('sponsored impressions, a read and a click acknowledged just before a PostgreSQL cut are all counted after restore', async () => {
    // Warm up: the campaign snapshot, the fetch pipeline, and an impression already stored.
    const first = await rig.search(key('ad-a').key, 'running shoes');
    expectOk(first, 'warm-up search');
    target = defined(sponsoredOf(first)[0], 'a sponsored result');
    expected.impressions = 1;
    await expectAllCounted();
    expectOk(
      await rig.request('POST', '/v1/fetch', { key: key('ad-a').key, body: { url: landing.url('/shoes') } }),
      'warm-up fetch',
    );

    // The cut must come before the queue's flush: when a slow machine lets the batch through
    // first, that burst proves nothing, and another one runs.
    let met = false;
    for (let attempt = 1; attempt <= 3 && !met; attempt++) {
      const failedBefore = failedWrites();
      await burst(`cut-${attempt}`);
      rig.pgProxy.cut();
      // The batch met the cut when its write fails (it is then kept for the next attempt).
      met = await waitFor(1500, 'a failed event write', () => (failedWrites() > failedBefore ? true : undefined)).then(
        () => true,
        () => false,
      );
      if (met) await hold(3000);
      rig.pgProxy.restore();
      await expectAllCounted();
    }
    expect(met, 'a burst of events met the PostgreSQL cut before its flush, in one of 3 attempts').toBe(true);
    expect(rig.server.child.exitCode).toBeNull();
  });

  it('a PostgreSQL connection lost in the middle of an event batch transaction: the server stays up and the batch is written after restore', async () => {
    const failedBefore = failedWrites();
    await burst('mid-transaction');
    // Stalled: the flush (within 200 ms) takes an idle pooled connection and its BEGIN gets no
    // answer, so the transaction is open when the connection is then cut.
    rig.pgProxy.stall();
    await hold(700);
    rig.pgProxy.cut();
    await waitFor(PATIENCE_MS, 'the failed batch write to be logged', () =>
      failedWrites() > failedBefore || rig.server.child.exitCode !== null ? true : undefined,
    );
    expect(rig.server.child.exitCode, `the server exited:\n${rig.server.stderr().slice(-1500)}`).toBeNull();
    await hold(2000);
    rig.pgProxy.restore();
    await expectAllCounted();
    expect(rig.server.child.exitCode).toBeNull();
  });
});
