import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import type { SearchProvider } from '../../../src/providers/provider.ts';
import { createSearchBackend } from '../../../src/providers/registry.ts';
import { answerCache, answerKey } from '../../../src/providers/result-cache.ts';
import {
  createRedisResultCache,
  resultCacheKey,
  type RedisResultCacheOptions,
} from '../../../src/store/redis/redis-result-cache.ts';
import type { ProviderResult } from '../../../src/search/search-types.ts';
import type { TcpProxy } from '../../helpers/tcp-proxy.ts';
import { query } from '../../providers/mock-upstream.ts';
import { eventually, proxyToRedis, recordingLogger, REDIS_URL, redisTestEnv } from './redis-test-env.ts';

/** The result cache shared by replicas: each replica its own connection, cache and backend. */

/** An upstream of its own per replica, counting its calls; `revision` like the local index's. */
function upstream(revision?: () => string) {
  const calls: string[] = [];
  const results: ProviderResult[] = [
    { title: 'Tokio', url: 'https://tokio.rs/', content: 'An async runtime for Rust' },
  ];
  const provider: SearchProvider = {
    name: 'brave',
    honours: new Set(['domains', 'dates', 'country'] as const),
    ...(revision ? { revision } : {}),
    search: async (q) => {
      calls.push(q.query);
      return results;
    },
  };
  return { provider, calls };
}

describe.skipIf(!REDIS_URL)('createRedisResultCache', () => {
  const env = redisTestEnv();
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await proxyToRedis();
  });
  afterEach(() => proxy.restore());
  afterAll(async () => {
    await env.closeAll();
    await proxy.close();
  });

  async function replica(options: Partial<RedisResultCacheOptions> = {}, revision?: () => string, url = REDIS_URL!) {
    const { logger, lines } = recordingLogger();
    const cache = createRedisResultCache(await env.open({ url, logger }), { ttlMs: 60_000, logger, ...options });
    const up = upstream(revision);
    // `cache`: the port with the answers' layer over it, as the backend uses it.
    return {
      backend: createSearchBackend([up.provider], { cache }),
      cache: answerCache(cache),
      calls: up.calls,
      lines,
    };
  }

  it('serves another replica the answer one stored, without calling its provider', async () => {
    const a = await replica();
    const b = await replica();
    const q = query({ query: 'shared cache one' });
    const first = await a.backend.search(q);
    expect(first.cached).toBe(false);
    expect(a.calls).toHaveLength(1);
    const other = await b.backend.search(query({ query: '  Shared CACHE one ' }));
    expect(other).toEqual({ ...first, cached: true });
    expect(b.calls).toEqual([]);
    expect(a.lines.concat(b.lines)).toEqual([]);
  });

  it('finds an answer only under the revision it was stored with', async () => {
    let revision = 'r1';
    const a = await replica({}, () => revision);
    const b = await replica({}, () => revision);
    const q = query({ query: 'shared cache revision' });
    await a.backend.search(q);
    expect((await b.backend.search(q)).cached).toBe(true);
    revision = 'r2'; // a write to the index, seen by both
    expect((await b.backend.search(q)).cached).toBe(false);
    expect(b.calls).toHaveLength(1);
    expect((await a.backend.search(q)).cached).toBe(true); // stored by b under r2
    expect(a.calls).toHaveLength(1);
  });

  it('expires answers after the TTL, in Redis and in the front of a replica that read them', async () => {
    // Seconds, not milliseconds: the read half-way must land before the expiry however busy
    // the machine (issue 24); the wait after it only ever gets longer.
    const a = await replica({ ttlMs: 3000 });
    const b = await replica({ ttlMs: 3000 });
    const q = query({ query: 'shared cache ttl' });
    await a.cache.set(q, { results: [], providers: ['brave'] });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await b.cache.get(q)).toEqual({ results: [], providers: ['brave'] });
    // b's front keeps it only for what was left in Redis, not a fresh 3 s.
    expect(await eventually(async () => (await b.cache.get(q)) === undefined, 2500, 10)).toBe(true);
    expect(await a.cache.get(q)).toBeUndefined();
  });

  it('does not share answers larger than maxValueBytes (the writer still keeps its own)', async () => {
    const a = await replica({ maxValueBytes: 2000 });
    const b = await replica({ maxValueBytes: 2000 });
    const big = { results: [{ title: 'é', url: 'https://e.com/', content: 'é'.repeat(1200) }], providers: ['brave'] };
    const q = query({ query: 'shared cache big' });
    await a.cache.set(q, big);
    expect(await b.cache.get(q)).toBeUndefined();
    expect(await a.cache.get(q)).toEqual(big);
    const small = { ...big, results: [{ ...defined(big.results[0], 'the big result'), content: 'é'.repeat(500) }] };
    await a.cache.set(q, small, 'r');
    expect(await b.cache.get(q, 'r')).toEqual(small);
  });

  it('reads an unreadable value as a miss', async () => {
    const b = await replica();
    const direct = await env.open();
    const q = query({ query: 'shared cache unreadable' });
    for (const value of ['{not json', '{"results":1,"providers":[]}', 'null']) {
      await direct.client.set(resultCacheKey(env.prefix, answerKey(q, '')), value, 'PX', 60_000);
      expect(await b.cache.get(q)).toBeUndefined();
    }
    expect((await b.backend.search(q)).cached).toBe(false); // and the search replaces it
    expect(JSON.parse((await direct.client.get(resultCacheKey(env.prefix, answerKey(q, ''))))!).providers).toEqual([
      'brave',
    ]);
  });

  it('fails open while Redis is unreachable: misses, no throw, logged once; shared again after restore', async () => {
    const a = await replica({}, undefined, proxy.url(REDIS_URL!));
    const b = await replica();
    proxy.cut();
    const q = query({ query: 'shared cache outage' });
    const started = performance.now();
    const answer = await a.backend.search(q);
    // Not waiting for Redis (it would wait until restore): a bound far above the moment a
    // search takes, for the machine may be busy (issue 24).
    expect(performance.now() - started).toBeLessThan(5000);
    expect(answer.cached).toBe(false);
    expect((await a.backend.search(q)).cached).toBe(true); // its own front
    expect(await b.cache.get(q)).toBeUndefined(); // never reached Redis
    await a.backend.search(query({ query: 'shared cache outage 2' }));
    expect(
      a.lines.filter((l) => l.msg === 'Redis unreachable: the result cache is per replica until it returns'),
    ).toHaveLength(1);

    proxy.restore();
    const q3 = query({ query: 'shared cache after outage' });
    expect(await eventually(async () => (await b.backend.search(q3), (await a.cache.get(q3)) !== undefined))).toBe(
      true,
    );
    expect(
      a.lines.filter((l) => l.msg === 'Redis reachable again: the result cache is shared across replicas'),
    ).toHaveLength(1);
  });
});
