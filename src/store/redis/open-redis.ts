import { Redis } from 'ioredis';
import { checkRedisSettings } from '../../config/storage-names.ts';
import { createOutageLog, NO_REDIS_LOG, type RedisLogger } from './outage-log.ts';

export interface OpenRedisOptions {
  /** redis://[user:password@]host:port[/db] or rediss:// (TLS). */
  url: string;
  /** Put before every key, so several deployments (and test runs) share one server. */
  prefix: string;
  logger?: RedisLogger;
  /** A command without an answer after this long fails, and its caller falls back (default 500 ms). */
  commandTimeoutMs?: number;
  /** A connection attempt is given up after this long; openRedis waits this long for the first one (default 1000 ms). */
  connectTimeoutMs?: number;
  /** After a failed command, callers fall back at once for this long, then one call probes Redis (default 1000 ms). */
  suspendMs?: number;
}

export interface RedisConnection {
  readonly client: Redis;
  readonly prefix: string;
  /**
   * Runs `op` on Redis. Rejects at once (RedisUnavailableError) while the connection is down
   * or Redis recently failed to answer, so callers fall back without waiting on a dead server.
   */
  run<T>(op: (client: Redis) => Promise<T>): Promise<T>;
  /** Throws when Redis cannot answer now (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

export { checkRedisSettings } from '../../config/storage-names.ts';

/** Exponential backoff from 100 ms, capped at 1 s: a returning Redis is used again within a second. */
const retryStrategy = (times: number): number => Math.min(50 * 2 ** times, 1000);

/**
 * An ioredis client set to fail fast during outages instead of queueing: no offline queue (a
 * command while disconnected fails at once), no resend of commands lost with a connection,
 * a command timeout, a socket timeout that drops a connection gone silent (a partition never
 * closes it), and endless reconnects with capped backoff, so Redis is used again by itself.
 * Resolves once connected, or after connectTimeoutMs with the client still trying in the
 * background: callers fall back meanwhile. Connection loss and return are logged once each.
 */
export async function openRedis(options: OpenRedisOptions): Promise<RedisConnection> {
  checkRedisSettings(options.url, options.prefix);
  const commandTimeout = options.commandTimeoutMs ?? 500;
  const connectTimeout = options.connectTimeoutMs ?? 1000;
  const suspendMs = options.suspendMs ?? 1000;
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout,
    // Commands waiting this long with not a byte back: the connection is dropped and redone.
    socketTimeout: commandTimeout * 2,
    connectTimeout,
    retryStrategy,
  });
  const outage = createOutageLog(
    options.logger ?? NO_REDIS_LOG,
    'Redis connection lost or refused; retrying in the background',
    'Redis connection restored',
  );
  let closing = false;
  let suspendedUntil = 0;
  // Listening to 'error' is what keeps ioredis from raising unhandled errors.
  client.on('error', (e: unknown) => outage.down(e));
  client.on('close', () => {
    if (!closing) outage.down('connection closed');
  });
  client.on('ready', () => {
    suspendedUntil = 0;
    outage.up();
  });

  // Failures meanwhile are logged through 'error'; reconnects go on in the background.
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, connectTimeout + 200);
    client.once('ready', done);
  });

  async function run<T>(op: (client: Redis) => Promise<T>): Promise<T> {
    if (client.status !== 'ready') throw new RedisUnavailableError(`the Redis connection is ${client.status}`);
    const t = performance.now();
    if (t < suspendedUntil) throw new RedisUnavailableError('Redis did not answer recently');
    // The first call after a suspension probes; the others keep falling back until it answers.
    if (suspendedUntil !== 0) suspendedUntil = t + suspendMs;
    try {
      const value = await op(client);
      suspendedUntil = 0;
      return value;
    } catch (e) {
      suspendedUntil = performance.now() + suspendMs;
      throw e;
    }
  }

  return {
    client,
    prefix: options.prefix,
    run,
    async ping() {
      await run((c) => c.ping());
    },
    async close() {
      closing = true;
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
