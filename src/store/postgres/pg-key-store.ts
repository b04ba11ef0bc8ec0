import type pg from 'pg';
import type { ApiKeyRecord, KeyStore } from '../ports.ts';
import { channelName, listenForChanges, type ChangeListenerOptions } from './change-listener.ts';
import { clientConfigOf } from './open-postgres.ts';

interface Row {
  id: string;
  name: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

// Named columns, never *: a prepared statement fails once a later migration changes the row shape.
const COLUMNS = 'id, name, hash, created_at, revoked_at';

const toRecord = (r: Row): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  hash: r.hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

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
          text: `WITH k AS (INSERT INTO api_keys (id, name, hash, created_at) VALUES ($1, $2, $3, $4) RETURNING id)
                 SELECT pg_notify($5, id) FROM k`,
          values: [r.id, r.name, r.hash, r.createdAt, channel],
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
      const { rows } = await pool.query<Row>({ name: 'scout_key_by_hash', text: `SELECT ${COLUMNS} FROM api_keys WHERE hash = $1`, values: [hash] });
      const record = rows[0] && toRecord(rows[0]);
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
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`);
      return rows.map(toRecord);
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
    cacheActive: () => listener.epoch() !== undefined,
    close: () => listener.close(),
  };
}
