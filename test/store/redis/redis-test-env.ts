import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { openRedis, type OpenRedisOptions, type RedisConnection } from '../../../src/store/redis/open-redis.ts';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts';

/** The test Redis (skip when unset) and a throwaway key prefix per test file. */
export const REDIS_URL = process.env.SCOUT_TEST_REDIS_URL;

/** A TCP proxy the test controls in front of the test Redis: outages without touching the server. */
export function proxyToRedis(): Promise<TcpProxy> {
  const target = new URL(REDIS_URL!);
  return startTcpProxy(target.hostname, Number(target.port || 6379));
}

export const testPrefix = (): string => `scout:t:${randomBytes(6).toString('hex')}:`;

/** Connections opened through here are closed by closeAll(). */
export function redisTestEnv(prefix = testPrefix()) {
  const opened: RedisConnection[] = [];
  return {
    prefix,
    async open(options: Partial<OpenRedisOptions> = {}): Promise<RedisConnection> {
      const c = await openRedis({ url: REDIS_URL!, prefix, ...options });
      opened.push(c);
      return c;
    },
    /** Deletes every key under the prefix, then closes every connection. */
    async closeAll(): Promise<void> {
      const direct = await openRedis({ url: REDIS_URL!, prefix });
      await deleteKeys(direct.client, prefix);
      await direct.close();
      await Promise.all(opened.map((c) => c.close()));
    },
  };
}

export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** A logger that keeps its lines. */
export function recordingLogger() {
  const lines: { level: 'warn' | 'info'; msg: string; obj: object }[] = [];
  return {
    lines,
    logger: {
      warn: (obj: object, msg: string) => void lines.push({ level: 'warn', msg, obj }),
      info: (obj: object, msg: string) => void lines.push({ level: 'info', msg, obj }),
    },
  };
}

/**
 * Polls `check` until it returns true or `ms` pass: what it waits for (a reconnect, an expiry)
 * takes a second or so; the default is far above that, for the machine may be busy (issue 24).
 */
export async function eventually(check: () => Promise<boolean>, ms = 20_000, every = 50): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, every));
  }
  return check();
}
