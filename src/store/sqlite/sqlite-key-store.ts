import { ANONYMOUS_USAGE_ID } from '../../domain/anonymous-caller.ts';
import type { ApiKeyRecord, KeyStore, KeyUsage } from '../ports.ts';
import {
  KEY_COLUMNS,
  insertKeySql,
  insertKeyValues,
  keyFromRow,
  usageFromRow,
  usageSql,
  type KeyRow,
  type UsageRow,
} from '../sql/key-rows.ts';
import { sqliteCodec } from '../sql/sql-codec.ts';
import { withIsoTimes } from '../usage-times.ts';
import type { SqliteDatabase } from './open-database.ts';

/** Records remembered between changes of the file (found keys only). */
const REMEMBERED = 10_000;

/**
 * Keys in SQLite. Every request looks its key up, so found records are remembered while
 * the file is unchanged: `PRAGMA data_version` (which moves when another connection, such
 * as `scout keys revoke`, commits) costs about half the indexed lookup, and this
 * connection's own writes clear the memory themselves. A revocation still applies to the
 * very next request. Usage writes touch no key: this connection's leave the memory as it is
 * (they do not move its own data_version), another's only make it read keys again.
 */
export function createSqliteKeyStore(db: SqliteDatabase): KeyStore {
  const version = db.prepare('PRAGMA data_version').pluck();
  const remembered = new Map<string, ApiKeyRecord>();
  let seenVersion: unknown;
  const insert = db.prepare(insertKeySql(sqliteCodec));
  const byHash = db.prepare<[string], KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ?`);
  const all = db.prepare<[], KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM api_keys');
  // An upsert adds to the stored totals where they are, so connections (and their processes)
  // add up. WHERE EXISTS skips ids that are not keys (but the anonymous tier's aggregate); it
  // is also the WHERE that SQLite needs to parse ON CONFLICT after INSERT … SELECT. max() of two texts keeps the later time
  // (every one is in toISOString form); it is NULL when either is, hence the COALESCE.
  const addUsage = db.prepare<[string, number, number, string | null, string, string]>(
    `INSERT INTO api_key_usage (key_id, requests, refusals, last_used_at)
     SELECT ?, ?, ?, ? WHERE ? = '${ANONYMOUS_USAGE_ID}' OR EXISTS (SELECT 1 FROM api_keys WHERE id = ?)
     ON CONFLICT (key_id) DO UPDATE SET
       requests = requests + excluded.requests,
       refusals = refusals + excluded.refusals,
       last_used_at = COALESCE(max(last_used_at, excluded.last_used_at), last_used_at, excluded.last_used_at)`,
  );
  const addAll = db.transaction((deltas: readonly KeyUsage[]) => {
    for (const d of deltas) addUsage.run(d.id, d.requests, d.refusals, d.lastUsedAt, d.id, d.id);
  });
  const usage = db.prepare<[], UsageRow>(usageSql(sqliteCodec));
  return {
    async insert(r) {
      insert.run(insertKeyValues(r));
      remembered.clear();
    },
    async findByHash(hash) {
      const v = version.get();
      if (v !== seenVersion) {
        remembered.clear();
        seenVersion = v;
      }
      const known = remembered.get(hash);
      if (known) return { ...known };
      const row = byHash.get(hash);
      if (row === undefined) return undefined;
      const record = keyFromRow(row);
      if (remembered.size >= REMEMBERED) remembered.clear();
      remembered.set(hash, record);
      return { ...record };
    },
    async list() {
      return all.all().map(keyFromRow);
    },
    async revoke(id, at) {
      remembered.clear();
      return revoke.run(at, id).changes > 0;
    },
    async count() {
      return count.get()?.n ?? 0;
    },
    async addUsage(deltas) {
      // Normalized before the transaction: a bad time fails the call with nothing written.
      addAll(withIsoTimes(deltas));
    },
    async usage() {
      return usage.all().map(usageFromRow);
    },
  };
}
