import type { ApiKeyRecord, KeyStore } from '../ports.ts';
import type { SqliteDatabase } from './open-database.ts';

interface Row {
  id: string;
  name: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

const toRecord = (r: Row): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  hash: r.hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** Records remembered between changes of the file (found keys only). */
const REMEMBERED = 10_000;

/**
 * Keys in SQLite. Every request looks its key up, so found records are remembered while
 * the file is unchanged: `PRAGMA data_version` (which moves when another connection, such
 * as `scout keys revoke`, commits) costs about half the indexed lookup, and this
 * connection's own writes clear the memory themselves. A revocation still applies to the
 * very next request.
 */
export function createSqliteKeyStore(db: SqliteDatabase): KeyStore {
  const version = db.prepare('PRAGMA data_version').pluck();
  const remembered = new Map<string, ApiKeyRecord>();
  let seenVersion: unknown;
  const insert = db.prepare('INSERT INTO api_keys (id, name, hash, created_at) VALUES (?, ?, ?, ?)');
  const byHash = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE hash = ?');
  const all = db.prepare<[], Row>('SELECT * FROM api_keys ORDER BY created_at, id');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM api_keys');
  return {
    async insert(r) {
      insert.run(r.id, r.name, r.hash, r.createdAt);
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
      const record = toRecord(row);
      if (remembered.size >= REMEMBERED) remembered.clear();
      remembered.set(hash, record);
      return { ...record };
    },
    async list() {
      return all.all().map(toRecord);
    },
    async revoke(id, at) {
      remembered.clear();
      return revoke.run(at, id).changes > 0;
    },
    async count() {
      return count.get()?.n ?? 0;
    },
  };
}
