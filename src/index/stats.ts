import type Database from 'better-sqlite3';
import type { IndexStats } from '../store/index-rows.ts';

interface Totals {
  documents: number;
  domains: number;
  textBytes: number | null;
  dated: number;
  newest: string | null;
  oldest: string | null;
  lastImportAt: string | null;
}

/** One pass over the documents table; for `scout index stats` and health output, not hot paths. */
export function readStats(db: Database.Database): IndexStats {
  const t = db
    .prepare(
      `SELECT count(*) AS documents, count(DISTINCT domain) AS domains,
              (SELECT sum(length(CAST(title AS BLOB)) + length(CAST(content AS BLOB))) FROM document_texts) AS textBytes,
              count(published_date) AS dated, max(published_date) AS newest, min(published_date) AS oldest,
              (SELECT max(indexed_at) FROM documents WHERE source = 'import') AS lastImportAt
       FROM documents`,
    )
    .get() as Totals;
  const sources = db.prepare('SELECT source, count(*) AS n FROM documents GROUP BY source ORDER BY source').all() as {
    source: string;
    n: number;
  }[];
  const pages = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const freePages = db.pragma('freelist_count', { simple: true }) as number;
  return {
    documents: t.documents,
    domains: t.domains,
    bytes: (pages - freePages) * pageSize,
    textBytes: t.textBytes ?? 0,
    dated: t.dated,
    ...(t.newest !== null ? { newest: t.newest } : {}),
    ...(t.oldest !== null ? { oldest: t.oldest } : {}),
    ...(t.lastImportAt !== null ? { lastImportAt: t.lastImportAt } : {}),
    sources: Object.fromEntries(sources.map((s) => [s.source, s.n])),
  };
}
