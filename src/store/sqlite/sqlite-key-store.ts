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

export function createSqliteKeyStore(db: SqliteDatabase): KeyStore {
  const insert = db.prepare('INSERT INTO api_keys (id, name, hash, created_at) VALUES (?, ?, ?, ?)');
  const byHash = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE hash = ?');
  const all = db.prepare<[], Row>('SELECT * FROM api_keys ORDER BY created_at, id');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM api_keys');
  return {
    async insert(r) {
      insert.run(r.id, r.name, r.hash, r.createdAt);
    },
    async findByHash(hash) {
      const row = byHash.get(hash);
      return row && toRecord(row);
    },
    async list() {
      return all.all().map(toRecord);
    },
    async revoke(id, at) {
      return revoke.run(at, id).changes > 0;
    },
    async count() {
      return count.get()?.n ?? 0;
    },
  };
}
