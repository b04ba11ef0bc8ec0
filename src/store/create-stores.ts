import { join } from 'node:path';
import { ConfigError } from '../config/load-config.ts';
import type { Config } from '../config/settings.ts';
import { createClosers, type Closers } from '../domain/closers.ts';
import { requireExistingStore } from './existing-store.ts';
import type { MigrationState } from './postgres/migrate.ts';
import type { IndexDocumentStore, ResultCache, SponsoredStores, Stores } from './ports.ts';
import { createMemoryRateLimiter } from './memory/memory-rate-limiter.ts';
import { migrate, openDatabase } from './sqlite/open-database.ts';
import { migrations } from './sqlite/migrations.ts';
import { openSponsoredStore, sponsoredStoreFile } from './sqlite/open-sponsored-store.ts';
import { createSqliteBudgetStore } from './sqlite/sqlite-budget-store.ts';
import { createSqliteCrawlJobStore } from './sqlite/sqlite-crawl-job-store.ts';
import { createSqliteKeyStore } from './sqlite/sqlite-key-store.ts';

/**
 * The only place that chooses and opens storage, for the server and the CLI alike
 * (docs/architecture.md, "Storage"; docs/scale-out.md):
 * - embedded (default): SQLite files in SCOUT_DATA_DIR, one process;
 * - postgres (SCOUT_DATABASE_URL): everything durable in PostgreSQL, the rate limiter too;
 * - postgres+redis (and SCOUT_REDIS_URL): the rate limiter and the shared result cache in Redis.
 * The PostgreSQL and Redis drivers load only when their mode is chosen.
 */
export type StorageMode = 'embedded' | 'postgres' | 'postgres+redis';

export const storageMode = (c: Pick<Config, 'databaseUrl' | 'redisUrl'>): StorageMode =>
  c.databaseUrl === undefined ? 'embedded' : c.redisUrl === undefined ? 'postgres' : 'postgres+redis';

/** Path of the embedded store inside the data folder. */
export const storeFile = (dataDir: string): string => join(dataDir, 'scout.db');
/** Path of the embedded local index inside the data folder. */
export const indexFile = (dataDir: string): string => join(dataDir, 'index.db');

/** The rate-limit settings: the keys' and, when the anonymous tier is on, the anonymous callers'. */
type RateSettings = Pick<Config, 'rateLimitRpm'> & Partial<Pick<Config, 'anonymousRpm'>>;

/** The anonymous tier is on (SCOUT_ANONYMOUS_RPM above 0): its limiter is made beside the keys' one. */
const anonymousRpmOf = (config: RateSettings): number | undefined =>
  config.anonymousRpm !== undefined && config.anonymousRpm > 0 ? config.anonymousRpm : undefined;

/** The embedded keys, budget, crawl jobs and rate limiters (SQLite in SCOUT_DATA_DIR; the limiters in memory). */
export function createStores(config: Pick<Config, 'dataDir'> & RateSettings, now: () => number = Date.now): Stores {
  const db = openDatabase(storeFile(config.dataDir));
  migrate(db, migrations);
  const ping = db.prepare('SELECT 1');
  const anonymousRpm = anonymousRpmOf(config);
  return {
    keys: createSqliteKeyStore(db),
    budget: createSqliteBudgetStore(db),
    crawlJobs: createSqliteCrawlJobStore(db),
    rateLimiter: createMemoryRateLimiter(config.rateLimitRpm, now),
    ...(anonymousRpm === undefined ? {} : { anonymousRateLimiter: createMemoryRateLimiter(anonymousRpm, now) }),
    async ping() {
      ping.get();
    },
    async close() {
      db.close();
    },
  };
}

export interface StorageLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Where the local index's documents are, as the storage mode chooses; src/index/open-index.ts
 * opens the index over it. Embedded: the SQLite file the index opens itself. Shared: the
 * document store (PostgreSQL) every replica's index follows, and `scout index` writes to.
 */
export type IndexSource = { file: string } | { store: IndexDocumentStore };

export interface ServerStorage {
  mode: StorageMode;
  /** Keys, budget, rate limiter; ping() is the readiness of what requests cannot do without. */
  stores: Stores;
  sponsored: SponsoredStores;
  /** Where the local index is: opened by src/index/open-index.ts, and closed before this storage. */
  index: IndexSource;
  /** A result cache shared by the replicas, when there is one; else the registry keeps its own. */
  resultCache?: ResultCache;
  /** Other processes draw on the same budget: it must not be leased (search-budget.ts). */
  sharedBudget: boolean;
  /** Closes everything opened here, last opened first. */
  close(): Promise<void>;
}

export interface ServerStorageOptions {
  logger: StorageLogger;
  now?: () => number;
  /** Whether a provider other than the local index is configured: only their answers are worth sharing through Redis. */
  remoteProviders: boolean;
}

/** Opens what the server needs in the mode the settings choose; migrations are applied first. */
export async function openServerStorage(config: Config, o: ServerStorageOptions): Promise<ServerStorage> {
  const closers = createClosers();
  try {
    return await (config.databaseUrl === undefined ? openEmbedded(config, o, closers) : openShared(config, o, closers));
  } catch (e) {
    await closers.closeAll().catch(() => undefined);
    throw e;
  }
}

async function openEmbedded(config: Config, o: ServerStorageOptions, closers: Closers): Promise<ServerStorage> {
  const stores = createStores(config, o.now);
  closers.add(() => stores.close());
  const sponsored = openSponsoredStore(config.dataDir);
  closers.add(() => sponsored.close());
  const index = { file: indexFile(config.dataDir) };
  return { mode: 'embedded', stores, sponsored, index, sharedBudget: false, close: () => closers.closeAll() };
}

/** PostgreSQL's pool opener, loaded only in the shared modes (the driver with it). */
const openMigratedPool: typeof import('./postgres/migrated-pool.ts')['openMigratedPool'] = async (config, o) =>
  (await import('./postgres/migrated-pool.ts')).openMigratedPool(config, o);

async function openShared(config: Config, o: ServerStorageOptions, closers: Closers): Promise<ServerStorage> {
  const { logger } = o;
  // One cut drops every idle connection at once: said once, not once per connection.
  let idleWarnedAt = -Infinity;
  const onIdleError = (err: Error): void => {
    if (performance.now() - idleWarnedAt < 10_000) return;
    idleWarnedAt = performance.now();
    logger.warn({ err: err.message }, 'PostgreSQL connections lost while idle; new ones are opened on next use');
  };
  const pool = await openMigratedPool(config, { mustExist: false, server: { onIdleError } });
  closers.add(() => pool.end());
  const { openPostgresStores } = await import('./postgres/open-postgres-stores.ts');
  const pg = openPostgresStores(pool, {
    schema: config.databaseSchema,
    listener: {
      onDown: (err) =>
        logger.warn(
          { err: err.message },
          'PostgreSQL key-change listener lost: every key is verified against PostgreSQL until it is back',
        ),
      onUp: () => logger.info({}, 'PostgreSQL key-change listener restored: verified keys are remembered again'),
    },
  });
  closers.add(() => pg.close());

  const anonymousRpm = anonymousRpmOf(config);
  let rateLimiter: Stores['rateLimiter'];
  let anonymousRateLimiter: Stores['rateLimiter'] | undefined;
  let resultCache: ResultCache | undefined;
  if (config.redisUrl !== undefined) {
    const { openRedis } = await import('./redis/open-redis.ts');
    const { createRedisRateLimiter } = await import('./redis/redis-rate-limiter.ts');
    const redis = await openRedis({ url: config.redisUrl, prefix: config.redisPrefix, logger });
    closers.add(() => redis.close());
    rateLimiter = createRedisRateLimiter(redis, { perMinute: config.rateLimitRpm, logger });
    // Its buckets are named anon:…, never a key id: one keyspace holds both. No logger: the
    // keys' limiter on the same connection already says when Redis is lost and back.
    if (anonymousRpm !== undefined) anonymousRateLimiter = createRedisRateLimiter(redis, { perMinute: anonymousRpm });
    // The local index is ranked in every replica's memory, faster than a Redis round trip:
    // only answers that cost an upstream call are shared.
    if (o.remoteProviders) {
      const { createRedisResultCache } = await import('./redis/redis-result-cache.ts');
      resultCache = createRedisResultCache(redis, {
        ttlMs: config.searchCacheTtl * 1000,
        front: { max: config.searchCacheSize },
        logger,
      });
    }
  } else {
    const { createPostgresRateLimiter } = await import('./postgres/pg-rate-limiter.ts');
    rateLimiter = createPostgresRateLimiter(pool, config.rateLimitRpm);
    if (anonymousRpm !== undefined) anonymousRateLimiter = createPostgresRateLimiter(pool, anonymousRpm);
  }

  // On the shared pool: closing the index's store leaves the pool to this storage's close().
  const { createPostgresIndexStore } = await import('./postgres/pg-index-store.ts');
  const index = { store: createPostgresIndexStore(pool) };

  const stores: Stores = {
    keys: pg.keys,
    budget: pg.budget,
    crawlJobs: pg.crawlJobs,
    rateLimiter,
    ...(anonymousRateLimiter === undefined ? {} : { anonymousRateLimiter }),
    // Ready means PostgreSQL answers: without it keys cannot be verified. Redis is not
    // asked: without it requests are still served (per-replica limits).
    ping: () => pg.ping(),
    close: async () => undefined,
  };
  const sponsored: SponsoredStores = {
    campaigns: pg.campaigns,
    events: pg.events,
    secrets: pg.secrets,
    close: async () => undefined,
  };
  return {
    mode: storageMode(config),
    stores,
    sponsored,
    index,
    ...(resultCache ? { resultCache } : {}),
    sharedBudget: true,
    close: () => closers.closeAll(),
  };
}

/** What a CLI command needs: whether it may create the store, or only use one that exists. */
export interface CliStoreOptions {
  /** Commands that read or change existing records refuse a store that does not exist (a mistyped setting). */
  mustExist: boolean;
}

/** The key store the server reads, for `scout keys`. */
export async function openKeyStore(
  config: Config,
  o: CliStoreOptions,
): Promise<{ keys: Stores['keys']; close(): Promise<void> }> {
  if (config.databaseUrl === undefined) {
    if (o.mustExist) requireExistingStore(storeFile(config.dataDir), 'key store', config.dataDir);
    const stores = createStores(config);
    return { keys: stores.keys, close: () => stores.close() };
  }
  const pool = await openMigratedPool(config, o);
  const { createPostgresKeyStore } = await import('./postgres/pg-key-store.ts');
  const keys = createPostgresKeyStore(pool, { schema: config.databaseSchema });
  return {
    keys,
    async close() {
      await keys.close();
      await pool.end();
    },
  };
}

/** The campaigns and events the server reads, for `scout campaigns`. */
export async function openSponsoredStores(config: Config, o: CliStoreOptions): Promise<SponsoredStores> {
  if (config.databaseUrl === undefined) {
    if (o.mustExist) requireExistingStore(sponsoredStoreFile(config.dataDir), 'campaign store', config.dataDir);
    return openSponsoredStore(config.dataDir);
  }
  const pool = await openMigratedPool(config, o);
  const { openPostgresStores } = await import('./postgres/open-postgres-stores.ts');
  const s = openPostgresStores(pool, { schema: config.databaseSchema });
  return {
    campaigns: s.campaigns,
    events: s.events,
    secrets: s.secrets,
    async close() {
      await s.close();
      await pool.end();
    },
  };
}

/**
 * Where the local index the server reads is, for `scout index` (src/index/open-index.ts opens
 * it for writing; a running server sees what is written). The document store ends its own
 * pool when closed.
 */
export async function openIndexSource(config: Config, o: CliStoreOptions): Promise<IndexSource> {
  if (config.databaseUrl === undefined) {
    const file = indexFile(config.dataDir);
    if (o.mustExist) requireExistingStore(file, 'local index', config.dataDir);
    return { file };
  }
  const pool = await openMigratedPool(config, o);
  const { createPostgresIndexStore } = await import('./postgres/pg-index-store.ts');
  return { store: createPostgresIndexStore(pool, { endPool: true }) };
}

export type { MigrationState } from './postgres/migrate.ts';

/** `scout db migrate|status`: PostgreSQL's versioned migrations (the embedded files migrate themselves). */
export async function databaseMigrations(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema'>,
  action: 'migrate' | 'status',
): Promise<MigrationState[]> {
  if (config.databaseUrl === undefined) {
    throw new ConfigError(
      'scout db works on PostgreSQL: set SCOUT_DATABASE_URL (the embedded SQLite files are migrated when opened)',
    );
  }
  return (await import('./postgres/migrated-pool.ts')).runMigrations(config, action);
}
