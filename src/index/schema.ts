import type Database from 'better-sqlite3';

/**
 * Tables of the local index.
 * - `documents`: one narrow row per url with what filters and results need (domain, UTC
 *   day, country, ...). Kept apart from the text so the filter join of a search reads a
 *   few small pages instead of one multi-KB row per candidate (measured: 3-4x faster).
 * - `document_texts`: title and content, same id; the external content of the FTS index
 *   (the text is stored once, and snippet() reads it from there).
 * - `documents_fts`: FTS5 over title and content. Triggers keep it in step with
 *   document_texts, and deleting a document deletes its text, so an upsert that replaces
 *   a url also replaces its postings.
 *
 * Tokenizer: porter stemming over unicode61 with diacritics removed, so "indexing" finds
 * "indexed" and "resume" finds "résumé"; queries go through the same tokenizer.
 */
export const SCHEMA_VERSION = 1;

const DDL = `
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY,
  domain TEXT NOT NULL,
  published_day TEXT,
  country TEXT,
  language TEXT,
  source TEXT NOT NULL DEFAULT 'import',
  published_date TEXT,
  indexed_at TEXT NOT NULL,
  url TEXT NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS documents_domain ON documents(domain);
CREATE INDEX IF NOT EXISTS documents_source ON documents(source);
CREATE TABLE IF NOT EXISTS document_texts (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  content TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS documents_ad AFTER DELETE ON documents BEGIN
  DELETE FROM document_texts WHERE id = old.id;
END;
CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(
  title, content,
  content='document_texts', content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS document_texts_ai AFTER INSERT ON document_texts BEGIN
  INSERT INTO documents_fts(rowid, title, content) VALUES (new.id, new.title, new.content);
END;
CREATE TRIGGER IF NOT EXISTS document_texts_ad AFTER DELETE ON document_texts BEGIN
  INSERT INTO documents_fts(documents_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
END;
CREATE TRIGGER IF NOT EXISTS document_texts_au AFTER UPDATE OF title, content ON document_texts BEGIN
  INSERT INTO documents_fts(documents_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
  INSERT INTO documents_fts(rowid, title, content) VALUES (new.id, new.title, new.content);
END;
`;

export class IndexSchemaError extends Error {
  override name = 'IndexSchemaError';
}

/** Creates the schema when missing; refuses a file written by a newer Scout. */
export function ensureSchema(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new IndexSchemaError(
      `the local index was written by a newer Scout (schema ${version}, this one knows ${SCHEMA_VERSION})`,
    );
  }
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => {
    db.exec(DDL);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
