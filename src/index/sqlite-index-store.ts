import type { IndexChange, IndexDocumentStore } from '../store/ports.ts';
import { LocalIndex, openIndexDatabase } from './local-index.ts';

interface ChangeRow {
  seq: number;
  id: number;
  url: string | null;
  domain: string;
  title: string;
  content: string;
  publishedDate: string | null;
  day: string | null;
  country: string | null;
}

/**
 * The document store port over an index file: the embedded index's own writes
 * (LocalIndex, its ranker off) and its `index_changes` table (schema.ts) as the change
 * sequence. The server does not use it (LocalIndex reads the file directly, synchronously);
 * it holds the port's contract to the embedded behaviour (test/store/contract/index-document-store.ts).
 * SQLite has one writer at a time, so its sequence numbers are in commit order.
 */
export function openSqliteIndexStore(file: string): IndexDocumentStore {
  const db = openIndexDatabase(file);
  const index = new LocalIndex(db, { cacheSize: 0, memoryBudgetBytes: 0 });
  const changes = db.prepare(
    `SELECT c.seq, c.id, d.url, d.domain, d.published_date AS publishedDate, d.published_day AS day, d.country, t.title, t.content
     FROM index_changes c LEFT JOIN documents d ON d.id = c.id LEFT JOIN document_texts t ON t.id = c.id
     WHERE c.seq > ? ORDER BY c.seq LIMIT ?`,
  );
  const latest = db.prepare('SELECT ifnull(max(seq), 0) FROM index_changes').pluck();
  const toChange = ({ seq, id, url, ...doc }: ChangeRow): IndexChange => ({
    seq,
    id,
    doc: url === null ? null : { id, url, ...doc },
  });
  return {
    upsert: async (rows, source) => index.upsertRows(rows, source),
    replaceSource: async (source, rows) => index.replaceSource(source, rows),
    remove: async (urls) => index.remove(urls),
    changesSince: async (seq, limit) => (changes.all(seq, limit) as ChangeRow[]).map(toChange),
    latestSeq: async () => latest.get() as number,
    count: async () => index.count(),
    stats: async () => index.stats(),
    list: async (q) => index.list(q),
    close: async () => index.close(),
  };
}
