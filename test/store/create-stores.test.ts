import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { openServerStorage, openSponsoredStores, type ServerStorage } from '../../src/store/create-stores.ts';
import { testSchema } from '../helpers/postgres.ts';
import { deleteKeys, REDIS_URL, testPrefix } from './redis/redis-test-env.ts';
import { Redis } from 'ioredis';

const lines: string[] = [];
const logger = {
  info: (_: object, msg: string) => void lines.push(msg),
  warn: (_: object, msg: string) => void lines.push(msg),
};
const opened: ServerStorage[] = [];
const open = async (env: Record<string, string>, remoteProviders = false): Promise<ServerStorage> => {
  const s = await openServerStorage(loadConfig({ SCOUT_RATE_LIMIT_RPM: '1', ...env }), { logger, remoteProviders });
  opened.push(s);
  return s;
};
afterAll(async () => {
  for (const s of opened.splice(0).reverse()) await s.close();
});

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const crawlJob = { id: 'job_1', owner: 'key_1', request: '{}', createdAt: 1000, expiresAt: 2000 };

describe('openServerStorage: embedded (no SCOUT_DATABASE_URL)', () => {
  it('opens SQLite in SCOUT_DATA_DIR: leased budget, process-local limiter and cache, one rec_id key and the crawl jobs across restarts', async () => {
    const env = { SCOUT_DATA_DIR: mkdtempSync(join(tmpdir(), 'scout-storage-')) };
    const s = await open(env);
    expect(s).toMatchObject({ mode: 'embedded', sharedBudget: false });
    expect(s.resultCache).toBeUndefined();
    // The local index is a file it leaves to src/index/open-index.ts (test/index/open-index.test.ts).
    expect(s.index).toEqual({ file: join(env.SCOUT_DATA_DIR, 'index.db') });
    const key = await s.sponsored.secrets.get('rec_id', 32);
    expect(await s.stores.crawlJobs.create(crawlJob, 1)).toBe(true);
    await s.close();
    opened.pop();
    const again = await open(env);
    expect(same(await again.sponsored.secrets.get('rec_id', 32), key)).toBe(true);
    expect((await again.stores.crawlJobs.get(crawlJob.id))?.status).toBe('queued');
    await again.stores.ping();
  });
});

const db = testSchema();

describe.skipIf(!db)('openServerStorage: PostgreSQL', () => {
  afterAll(() => db?.drop());
  const env = () => ({ SCOUT_DATABASE_URL: db!.url, SCOUT_DATABASE_SCHEMA: db!.schema });

  it('migrates at start; replicas share the budget (unleased), the rate limit, the crawl jobs and the rec_id key with the CLI', async () => {
    const [a, b] = await Promise.all([open(env()), open(env())]);
    expect(a).toMatchObject({ mode: 'postgres', sharedBudget: true });
    expect(a.resultCache).toBeUndefined();
    // One bucket of 1 a minute for both replicas.
    expect((await a.stores.rateLimiter.consume('k1', 1)).allowed).toBe(true);
    expect((await b.stores.rateLimiter.consume('k1', 1)).allowed).toBe(false);
    // The budget: what one takes, the other sees.
    expect(await a.stores.budget.consume('2026-11', 3, 10)).toEqual({ allowed: true, used: 3 });
    expect(await b.stores.budget.used('2026-11')).toBe(3);
    // The crawl jobs: one replica's job is the other's to run.
    expect(await a.stores.crawlJobs.create(crawlJob, 1)).toBe(true);
    expect((await b.stores.crawlJobs.claim('runner_b', 1500, 1000))?.id).toBe(crawlJob.id);
    // The index: its document store, for src/index/open-index.ts (test/index/open-index.test.ts).
    expect('store' in a.index).toBe(true);
    // The rec_id key: the same bytes for both replicas and for the CLI.
    const cli = await openSponsoredStores(loadConfig(env()), { mustExist: true });
    const [ka, kb, kc] = await Promise.all([
      a.sponsored.secrets.get('rec_id', 32),
      b.sponsored.secrets.get('rec_id', 32),
      cli.secrets.get('rec_id', 32),
    ]);
    await cli.close();
    expect(same(ka, kb) && same(kb, kc)).toBe(true);
    await a.stores.ping();
  });

  it('fails the start in one line when PostgreSQL cannot be reached, leaving nothing open', async () => {
    const start = openServerStorage(
      loadConfig({
        SCOUT_DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/test',
        SCOUT_DATABASE_SCHEMA: db!.schema,
      }),
      {
        logger,
        remoteProviders: false,
      },
    );
    await expect(start).rejects.toThrow(
      `cannot use PostgreSQL at 127.0.0.1:1/test (SCOUT_DATABASE_URL, schema ${db!.schema}): ECONNREFUSED`,
    );
  });

  describe('within a role whose connections PostgreSQL limits', () => {
    // A role of its own with CONNECTION LIMIT: PostgreSQL refuses its next connection with
    // 53300 (too_many_connections), as a server whose max_connections is full does, without
    // filling the shared server's slots.
    const role = `${db?.schema}_r`;
    const roleEnv = (limit: number) => {
      const u = new URL(db!.url);
      u.username = role;
      return { SCOUT_DATABASE_URL: u.href, SCOUT_DATABASE_SCHEMA: `${role}${limit}` };
    };
    const setLimit = (n: number) => db!.pool.query(`ALTER ROLE "${role}" CONNECTION LIMIT ${n}`);
    beforeAll(async () => {
      await db!.pool.query(`CREATE ROLE "${role}" LOGIN CONNECTION LIMIT 0`);
      await db!.pool.query(`GRANT CREATE ON DATABASE "${new URL(db!.url).pathname.slice(1)}" TO "${role}"`);
    });
    afterAll(async () => {
      for (const s of opened.splice(0).reverse()) await s.close();
      await db!.pool.query(`DROP OWNED BY "${role}" CASCADE`);
      await db!.pool.query(`DROP ROLE "${role}"`);
    });

    it('a start refused for want of a connection slot says what to change', async () => {
      await setLimit(0);
      await expect(open(roleEnv(0))).rejects.toThrow(
        /\): the server has no connection slot left \(53300 too_many_connections\): raise its max_connections, or lower SCOUT_DATABASE_POOL_SIZE/,
      );
    });

    it('a server holds at most SCOUT_DATABASE_POOL_SIZE connections plus its LISTEN one, however many queries wait', async () => {
      // 3 slots: a pool of 2 and the key-change listener. Every one of 40 concurrent
      // queries is answered; with the default pool of 10 the same burst asks for more than
      // PostgreSQL admits and is refused.
      await setLimit(3);
      const burst = (s: ServerStorage) =>
        Promise.all(Array.from({ length: 40 }, () => s.stores.budget.consume('2026-11', 1, 1_000_000)));
      const s = await open({ ...roleEnv(3), SCOUT_DATABASE_POOL_SIZE: '2' });
      const answers = await burst(s);
      expect(answers.filter((a) => a.allowed)).toHaveLength(40);
      const { rows } = await db!.pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM pg_stat_activity WHERE usename = $1',
        [role],
      );
      expect(Number(rows[0]?.n)).toBeLessThanOrEqual(3);
      await s.close();
      opened.pop();

      await expect(burst(await open(roleEnv(3)))).rejects.toThrow(/too many connections/);
    });
  });

  describe.skipIf(!REDIS_URL)('with Redis', () => {
    const prefix = testPrefix();
    afterAll(async () => {
      const r = new Redis(REDIS_URL!);
      await deleteKeys(r, prefix);
      r.disconnect();
    });
    const redisEnv = () => ({ ...env(), SCOUT_REDIS_URL: REDIS_URL!, SCOUT_REDIS_PREFIX: prefix });

    it('keeps the rate limit in Redis, shared by replicas', async () => {
      const [a, b] = await Promise.all([open(redisEnv()), open(redisEnv())]);
      expect(a).toMatchObject({ mode: 'postgres+redis', sharedBudget: true });
      expect((await a.stores.rateLimiter.consume('k2', 1)).allowed).toBe(true);
      expect((await b.stores.rateLimiter.consume('k2', 1)).allowed).toBe(false);
      const r = new Redis(REDIS_URL!);
      const keys = await r.keys(`${prefix}*`);
      r.disconnect();
      expect(keys.length).toBeGreaterThan(0);
      // The PostgreSQL limiter was not asked: its table has no row for this key.
      const { rows } = await db!.pool.query('SELECT 1 FROM rate_limits WHERE key = $1', ['k2']);
      expect(rows).toEqual([]);
    });

    it('shares answers through Redis only when a remote provider is configured', async () => {
      expect((await open(redisEnv(), false)).resultCache).toBeUndefined();
      expect((await open(redisEnv(), true)).resultCache?.enabled).toBe(true);
    });
  });
});
