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
export const SCHEMA_VERSION = 2;

/** The FTS5 tokenizer of the index (the in-memory ranker reproduces it: ranker/tokenize.ts). */
export const FTS5_TOKENIZER = 'porter unicode61 remove_diacritics 2';

const V1 = `
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
  tokenize='${FTS5_TOKENIZER}'
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

/*
 * Version 2: `index_changes`, the ids whose document changed, each with the sequence
 * number of its latest change (one row per id, so the table never outgrows the ids). The
 * in-memory ranker (ranker/ranker-sync.ts) reads the ids past the last number it applied,
 * so a write by `scout index import` in another process reaches a running server's ranker
 * as a small delta instead of a rebuild.
 */
// An UPDATE or an INSERT, not INSERT OR REPLACE: inside a trigger the outer statement's
// conflict policy (the upsert's ABORT) overrides the OR clause. Not DELETE + INSERT
// either: deleting the newest row would hand its number out again.
const changed = (row: 'new' | 'old') =>
  `UPDATE index_changes SET seq = (SELECT max(seq) FROM index_changes) + 1 WHERE id = ${row}.id;
   INSERT INTO index_changes(id, seq) SELECT ${row}.id, (SELECT ifnull(max(seq), 0) + 1 FROM index_changes)
     WHERE NOT EXISTS (SELECT 1 FROM index_changes WHERE id = ${row}.id);`;
const V2 = `
CREATE TABLE IF NOT EXISTS index_changes (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS index_changes_seq ON index_changes(seq);
CREATE TRIGGER IF NOT EXISTS documents_changes_ai AFTER INSERT ON documents BEGIN ${changed('new')} END;
CREATE TRIGGER IF NOT EXISTS documents_changes_au AFTER UPDATE ON documents BEGIN ${changed('new')} END;
CREATE TRIGGER IF NOT EXISTS documents_changes_ad AFTER DELETE ON documents BEGIN ${changed('old')} END;
CREATE TRIGGER IF NOT EXISTS document_texts_changes_ai AFTER INSERT ON document_texts BEGIN ${changed('new')} END;
CREATE TRIGGER IF NOT EXISTS document_texts_changes_au AFTER UPDATE ON document_texts BEGIN ${changed('new')} END;
CREATE TRIGGER IF NOT EXISTS document_texts_changes_ad AFTER DELETE ON document_texts BEGIN ${changed('old')} END;
`;

/** DDL that takes a file from version i to i + 1. */
const STEPS = [V1, V2];

export class IndexSchemaError extends Error {
  override name = 'IndexSchemaError';
}

/** Creates the schema when missing, upgrades an older one; refuses a file written by a newer Scout. */
export function ensureSchema(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new IndexSchemaError(
      `the local index was written by a newer Scout (schema ${version}, this one knows ${SCHEMA_VERSION})`,
    );
  }
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (const ddl of STEPS.slice(version)) db.exec(ddl);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
