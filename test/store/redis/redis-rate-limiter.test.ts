import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter } from '../../../src/store/redis/redis-rate-limiter.ts';
import { luaScript, runScript } from '../../../src/store/redis/redis-script.ts';
import type { RateLimiter } from '../../../src/store/ports.ts';
import type { TcpProxy } from '../../helpers/tcp-proxy.ts';
import { eventually, proxyToRedis, recordingLogger, REDIS_URL, redisTestEnv } from './redis-test-env.ts';

/** The shared limiter on the Redis server's clock: replicas, GCRA waits, outages. */
describe.skipIf(!REDIS_URL)('createRedisRateLimiter', () => {
  const env = redisTestEnv();
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await proxyToRedis();
  });
  afterAll(async () => {
    await env.closeAll();
    await proxy.close();
  });

  /** Two replicas: separate connections, separate limiters, one Redis. */
  async function replicas(perMinute: number) {
    const { logger, lines } = recordingLogger();
    const a = createRedisRateLimiter(await env.open({ logger }), { perMinute, logger });
    const b = createRedisRateLimiter(await env.open({ logger }), { perMinute, logger });
    return { a, b, lines };
  }

  it('lets exactly the limit through when two replicas take 100 requests at once', async () => {
    const { a, b, lines } = await replicas(20);
    const decisions = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).consume('key_burst', 1)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    expect(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(lines).toEqual([]);
  });

  it('tells a refused request the GCRA wait (about 60000 / limit ms), not the rest of a window', async () => {
    const { a, b } = await replicas(20); // one request every 3 s
    for (let i = 0; i < 20; i++) await (i % 2 ? a : b).consume('key_wait', 1);
    const refused = await a.consume('key_wait', 1);
    expect(refused).toMatchObject({ allowed: false, limit: 20, remaining: 0 });
    expect(refused.retryAfterMs).toBeGreaterThan(2_500);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(3_000);
    expect(refused.resetMs).toBeGreaterThan(57_000);
    expect(refused.resetMs).toBeLessThanOrEqual(60_000);
    const seen = await b.peek('key_wait');
    expect(seen.remaining).toBe(0);
    expect(seen.retryAfterMs).toBeLessThanOrEqual(refused.retryAfterMs);
    expect(seen.retryAfterMs).toBeGreaterThan(refused.retryAfterMs - 500);
  });

  it('lets an idle key expire when its bucket is full again', async () => {
    const redis = await env.open();
    const r = createRedisRateLimiter(redis, { perMinute: 600 }); // 100 ms a request
    expect((await r.consume('key_idle', 2)).allowed).toBe(true);
    const ttl = await redis.client.pttl(`${env.prefix}rl:key_idle`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(200);
    expect(await eventually(async () => (await redis.client.exists(`${env.prefix}rl:key_idle`)) === 0)).toBe(true);
    expect(await r.peek('key_idle')).toEqual({ limit: 600, remaining: 600, resetMs: 0, retryAfterMs: 0 });
  });

  it('loads a script the server does not know with EVAL, then runs it by digest', async () => {
    const redis = await env.open();
    const script = luaScript(`-- ${env.prefix}${Date.now()}\nreturn ARGV[1]`);
    expect(await redis.client.script('EXISTS', script.sha)).toEqual([0]);
    expect(await runScript(redis.client, script, [], ['first'])).toBe('first');
    expect(await redis.client.script('EXISTS', script.sha)).toEqual([1]);
    expect(await runScript(redis.client, script, [], ['again'])).toBe('again');
  });

  describe('Redis unreachable (through a TCP proxy)', () => {
    afterEach(() => proxy.restore());

    /** One replica through the proxy, one straight to Redis. */
    async function split(perMinute: number) {
      const { logger, lines } = recordingLogger();
      const viaProxy = await env.open({ url: proxy.url(REDIS_URL!), logger });
      const cut = createRedisRateLimiter(viaProxy, { perMinute, logger });
      const direct = createRedisRateLimiter(await env.open(), { perMinute });
      return { cut, direct, lines };
    }

    /** True once `r` reads the bucket the direct replica emptied, i.e. uses Redis again. */
    const sharesWith = async (r: RateLimiter, direct: RateLimiter, key: string, perMinute: number) => {
      for (let i = 0; i < perMinute; i++) await direct.consume(key, 1);
      return eventually(async () => (await r.peek(key)).remaining === 0);
    };

    // Without a bound of its own a call would wait for a stalled or blackholed Redis forever;
    // with it, a call takes at most the 500 ms command timeout. Allowed 5 s: far from both,
    // for the machine may be busy (issue 24).
    const PROMPT_MS = 5000;

    const timed = async <T>(p: Promise<T>) => {
      const started = performance.now();
      const value = await p;
      return { value, ms: performance.now() - started };
    };

    for (const fault of ['refuse', 'blackhole', 'stall'] as const) {
      it(`${fault}: answers from a per-replica limiter without waiting for Redis, logs once, and shares Redis again after restore`, async () => {
        const { cut, direct, lines } = await split(5);
        expect((await cut.consume(`k_${fault}`, 1)).remaining).toBe(4);
        expect((await direct.consume(`k_${fault}`, 1)).remaining).toBe(3);

        if (fault === 'stall') proxy.stall();
        else proxy.cut(fault);
        const first = await timed(cut.consume(`k_${fault}`, 1));
        expect(first.ms).toBeLessThan(PROMPT_MS);
        // A fresh per-replica bucket: 5 - 1, although Redis holds 3 for this key.
        expect(first.value).toMatchObject({ allowed: true, remaining: 4, limit: 5 });
        for (let i = 0; i < 4; i++) {
          const next = await timed(cut.consume(`k_${fault}`, 1));
          expect(next.ms).toBeLessThan(PROMPT_MS);
        }
        expect((await cut.consume(`k_${fault}`, 1)).allowed).toBe(false); // the replica's own limit holds
        expect((await timed(cut.peek(`k_${fault}`))).ms).toBeLessThan(PROMPT_MS);
        const warned = lines.filter((l) => l.msg === 'Redis unreachable: rate limits are per replica until it returns');
        expect(warned).toHaveLength(1);

        proxy.restore();
        expect(await sharesWith(cut, direct, `back_${fault}`, 5)).toBe(true);
        expect(
          lines.filter((l) => l.msg === 'Redis reachable again: rate limits are shared across replicas'),
        ).toHaveLength(1);
        expect(lines.filter((l) => l.level === 'warn').length).toBeLessThanOrEqual(2); // the limiter's and the connection's
      });
    }

    it('never throws, even on a closed connection', async () => {
      const redis = await env.open();
      const r = createRedisRateLimiter(redis, { perMinute: 3 });
      await redis.close();
      expect((await r.consume('k', 1)).allowed).toBe(true);
      expect((await r.peek('k')).remaining).toBe(2);
    });
  });
});
