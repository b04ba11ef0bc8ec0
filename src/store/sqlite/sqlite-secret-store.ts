import { randomBytes } from 'node:crypto';
import type { SecretStore } from '../ports.ts';
import type { SqliteDatabase } from './open-database.ts';

/** Secrets in the `secrets` table: INSERT OR IGNORE then read, so racing processes agree on the first one written. */
export function createSqliteSecretStore(db: SqliteDatabase): SecretStore {
  const insert = db.prepare('INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)');
  const read = db.prepare<[string], { value: Buffer }>('SELECT value FROM secrets WHERE name = ?');
  return {
    async get(name, bytes) {
      insert.run(name, randomBytes(bytes));
      return new Uint8Array(read.get(name)!.value);
    },
  };
}
