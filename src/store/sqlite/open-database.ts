import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;

/**
 * Opens (creating if needed) a SQLite file with the settings every Scout database uses:
 * WAL so readers never wait for the writer, a busy timeout so a CLI writing beside a
 * running server waits instead of failing, and NORMAL sync (safe with WAL).
 */
export function openDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return db;
}

/** Applies the migrations past the file's user_version, each in its own transaction. */
export function migrate(db: SqliteDatabase, migrations: readonly string[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
