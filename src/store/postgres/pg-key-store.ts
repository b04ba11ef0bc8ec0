import type pg from 'pg';
import { ANONYMOUS_USAGE_ID } from '../../domain/anonymous-caller.ts';
import type { ApiKeyRecord, KeyStore } from '../ports.ts';
import {
  INSERT_KEY_PARAMS,
  KEY_COLUMNS,
  insertKeySql,
  insertKeyValues,
  keyFromRow,
  usageFromRow,
  usageSql,
  type KeyRow,
  type UsageRow,
} from '../sql/key-rows.ts';
import { postgresCodec } from '../sql/sql-codec.ts';
import { channelName, listenForChanges, type ChangeListenerOptions } from './change-listener.ts';
import { clientConfigOf } from './open-postgres.ts';

/**
 * One statement, so one transaction. Deltas of one id are summed first (ON CONFLICT may
 * touch a row once per statement); ids that are not keys are dropped by WHERE EXISTS; rows
 * are written in id order, so two batches racing lock their rows in the same order and
 * never deadlock. The increments happen on the stored row, under its lock: concurrent
 * batches of any replicas add up. GREATEST ignores NULL: a null time keeps the stored one.
 */
const ADD_USAGE = `INSERT INTO api_key_usage AS u (key_id, requests, refusals, last_used_at)
  SELECT d.id, sum(d.requests)::bigint, sum(d.refusals)::bigint, max(d.last_used_at)
  FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::timestamptz[]) AS d(id, requests, refusals, last_used_at)
  WHERE d.id = '${ANONYMOUS_USAGE_ID}' OR EXISTS (SELECT 1 FROM api_keys k WHERE k.id = d.id)
  GROUP BY d.id
  ORDER BY d.id
  ON CONFLICT (key_id) DO UPDATE SET
    requests = u.requests + EXCLUDED.requests,
    refusals = u.refusals + EXCLUDED.refusals,
    last_used_at = GREATEST(u.last_used_at, EXCLUDED.last_used_at)`;

const USAGE = usageSql(postgresCodec);
// The insert notifies in its own statement's transaction; the channel is the parameter after the key's.
const INSERT = insertKeySql(postgresCodec);

/** Answers remembered between changes (found and not found alike); all forgotten when full. */
const REMEMBERED = 10_000;

export interface PostgresKeyStore extends KeyStore {
  /** Whether remembered answers are in use now: the listening connection is up. */
  cacheActive(): boolean;
  /** Stops listening for key changes (the pool stays open: it belongs to the caller). */
  close(): Promise<void>;
}

export interface PostgresKeyStoreOptions {
  schema: string;
  /** The listening connection's settings, timings and outage hooks (for the log); its client settings default to the pool's. */
  listener?: Partial<Omit<ChangeListenerOptions, 'channel'>>;
}

/**
 * Keys in PostgreSQL, looked up on every request, so each replica remembers the answers
 * (found and not found) and asks the database again only after a change. A change is an
 * insert or a revoke by any replica or the CLI: each one NOTIFYs a channel of this schema
 * in its own statement's transaction, and a dedicated connection LISTENs. Remembered answers
 * are used only while that connection is up, and only those read since its last
 * notification or reconnection: a notification missed while it was down can never keep a
 * revoked key alive. A revocation reaches other replicas within the notification's delivery
 * (milliseconds); with the database unreachable, unremembered keys fail (the caller's 503).
 */
export function createPostgresKeyStore(pool: pg.Pool, o: PostgresKeyStoreOptions): PostgresKeyStore {
  const channel = channelName(o.schema, 'keys');
  const listener = listenForChanges({ client: clientConfigOf(pool), channel, ...o.listener });
  const remembered = new Map<string, ApiKeyRecord | null>();
  let rememberedAt: string | undefined;
  // Own writes forget at once, without waiting for their own notification to come back:
  // counted before (a lookup in flight is not kept) and after (nor one that read the row
  // just before the commit).
  let ownWrites = 0;
  const written = async <T>(work: () => Promise<T>): Promise<T> => {
    ownWrites++;
    try {
      return await work();
    } finally {
      ownWrites++;
    }
  };
  const epoch = (): string | undefined => {
    const e = listener.epoch();
    return e === undefined ? undefined : `${e}:${ownWrites}`;
  };

  return {
    async insert(r) {
      await written(() =>
        pool.query({
          name: 'scout_key_insert',
          text: `WITH k AS (${INSERT} RETURNING id) SELECT pg_notify($${INSERT_KEY_PARAMS + 1}, id) FROM k`,
          values: [...insertKeyValues(r), channel],
        }),
      );
    },
    async findByHash(hash) {
      listener.start();
      const at = epoch();
      if (at !== undefined && at === rememberedAt) {
        const known = remembered.get(hash);
        if (known !== undefined) return known === null ? undefined : { ...known };
      }
      const { rows } = await pool.query<KeyRow>({
        name: 'scout_key_by_hash',
        text: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1`,
        values: [hash],
      });
      const record = rows[0] && keyFromRow(rows[0]);
      // Kept only when nothing changed while the query ran: it may have read the row from
      // before a revocation whose notification came in meanwhile.
      if (at !== undefined && at === epoch()) {
        if (rememberedAt !== at || remembered.size >= REMEMBERED) remembered.clear();
        rememberedAt = at;
        remembered.set(hash, record ?? null);
      }
      return record && { ...record };
    },
    async list() {
      const { rows } = await pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
      return rows.map(keyFromRow);
    },
    async revoke(id, at) {
      const { rowCount } = await written(() =>
        pool.query({
          name: 'scout_key_revoke',
          text: `WITH k AS (UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id)
                 SELECT pg_notify($3, id) FROM k`,
          values: [at, id, channel],
        }),
      );
      return (rowCount ?? 0) > 0;
    },
    async count() {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys');
      return rows[0]?.n ?? 0;
    },
    // Not among the own writes above: usage changes no key, so remembered answers stay good.
    async addUsage(deltas) {
      if (deltas.length === 0) return;
      await pool.query({
        name: 'scout_key_add_usage',
        text: ADD_USAGE,
        values: [
          deltas.map((d) => d.id),
          deltas.map((d) => d.requests),
          deltas.map((d) => d.refusals),
          deltas.map((d) => d.lastUsedAt),
        ],
      });
    },
    async usage() {
      const { rows } = await pool.query<UsageRow>({ name: 'scout_key_usage', text: USAGE });
      return rows.map(usageFromRow);
    },
    cacheActive: () => listener.epoch() !== undefined,
    close: () => listener.close(),
  };
}
