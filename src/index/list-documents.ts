import type Database from 'better-sqlite3';
import type { IndexListEntry, IndexListQuery } from '../store/index-rows.ts';

const LIST = `SELECT d.url, t.title, d.domain, d.source, d.published_date FROM documents d JOIN document_texts t ON t.id = d.id
  WHERE (@domain IS NULL OR d.domain = @domain OR substr(d.domain, -length(@domain) - 1) = '.' || @domain)
    AND (@source IS NULL OR d.source = @source) AND (@after IS NULL OR d.url > @after)
  ORDER BY d.url LIMIT @limit`;

/** Prepared once per database. */
const statements = new WeakMap<Database.Database, Database.Statement<unknown[], IndexListEntry>>();

/** `scout index list` on an index file: url byte order (the unique index on url), domain with subdomains. */
export function listDocuments(db: Database.Database, q: IndexListQuery): IndexListEntry[] {
  let list = statements.get(db);
  if (list === undefined) statements.set(db, (list = db.prepare<unknown[], IndexListEntry>(LIST)));
  return list.all({ domain: q.domain ?? null, source: q.source ?? null, after: q.after ?? null, limit: q.limit });
}
