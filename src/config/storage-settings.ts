import { int, type Parser } from './parsers.ts';
import { s, type ValuesOf } from './setting.ts';
import { checkDatabaseUrl, checkRedisPrefix, checkRedisUrl, checkSchemaName } from './storage-names.ts';

const optional =
  (check: (v: string) => unknown): Parser<string | undefined> =>
  (raw) => {
    const v = raw.trim();
    if (v === '') return undefined;
    check(v);
    return v;
  };

const databaseUrl = optional(checkDatabaseUrl);
const redisUrl = optional(checkRedisUrl);
const schemaName: Parser<string> = (raw) => checkSchemaName(raw.trim());
const redisPrefix: Parser<string> = (raw) => checkRedisPrefix(raw.trim());

/**
 * Where state lives (docs/scale-out.md). Unset: embedded SQLite files in SCOUT_DATA_DIR,
 * one process. SCOUT_DATABASE_URL: PostgreSQL holds everything durable and replicas share
 * it; SCOUT_REDIS_URL adds Redis for the hot counters and the shared result cache.
 */
export const storageSettings = {
  databaseUrl: s(
    'SCOUT_DATABASE_URL',
    databaseUrl,
    '',
    'PostgreSQL URL (postgres://user:password@host:5432/db). Set: keys, budget, campaigns, ad events and the local index live there and replicas share them (docs/scale-out.md). Unset: embedded SQLite in SCOUT_DATA_DIR.',
  ),
  databaseSchema: s(
    'SCOUT_DATABASE_SCHEMA',
    schemaName,
    'scout',
    "PostgreSQL schema holding Scout's tables (created and migrated at start), so several deployments can share one database.",
  ),
  databasePoolSize: s(
    'SCOUT_DATABASE_POOL_SIZE',
    int(1, 1000),
    '10',
    "Most pooled PostgreSQL connections one server opens (it also holds one LISTEN connection): size PostgreSQL's max_connections for replicas x (this + 1) plus the CLI.",
  ),
  redisUrl: s(
    'SCOUT_REDIS_URL',
    redisUrl,
    '',
    'Redis URL (redis:// or rediss://) for the shared rate limiter and result cache; needs SCOUT_DATABASE_URL. Unset with PostgreSQL: the rate limiter runs in PostgreSQL.',
  ),
  redisPrefix: s(
    'SCOUT_REDIS_PREFIX',
    redisPrefix,
    'scout:',
    'Put before every Redis key, so several deployments can share one Redis.',
  ),
} as const;

/** Typed from this table, not from settings.ts's Config (which spreads it): the two files must not import each other. */
type StorageConfig = ValuesOf<typeof storageSettings>;

/** Why the start must stop, or undefined: Redis alone would give each replica its own keys and budget. */
export function storageRefusal(c: Pick<StorageConfig, 'databaseUrl' | 'redisUrl'>): string | undefined {
  if (c.redisUrl !== undefined && c.databaseUrl === undefined) {
    return 'SCOUT_REDIS_URL needs SCOUT_DATABASE_URL: Redis holds only counters and caches, the keys, budget and campaigns live in PostgreSQL; set SCOUT_DATABASE_URL too, or unset SCOUT_REDIS_URL';
  }
  return undefined;
}
