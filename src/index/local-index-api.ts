import type { DocumentRow, DocumentSource, IndexListEntry, IndexListQuery, IndexStats } from '../store/index-rows.ts';
import type { IndexDocument } from './index-document.ts';
import type { LocalHit, LocalSearch } from './local-index-types.ts';

/**
 * What callers of the local index use, whichever kind it is: the embedded one on SQLite
 * (local-index.ts, synchronous) or one whose documents live in PostgreSQL
 * (follower-index.ts, writes asynchronous). Callers `await` every write and count, which
 * costs the embedded index nothing measurable and lets either be passed.
 */
export type MaybePromise<T> = T | Promise<T>;

/** Writing and describing the documents: `scout index`, the starter corpus, ingest. */
export interface LocalIndexWriter {
  /** Validates every document first (DomainError `invalid` naming the first bad one), then writes all. */
  upsert(docs: IndexDocument[], source?: DocumentSource): MaybePromise<number>;
  /** Writes rows already checked by checkDocument; a url replaces itself. */
  upsertRows(rows: DocumentRow[], source?: DocumentSource): MaybePromise<number>;
  /** Replaces every document of one source with `rows`, atomically. */
  replaceSource(source: DocumentSource, rows: DocumentRow[]): MaybePromise<number>;
  /** Deletes the documents of these urls (as stored: checkDocument's form); returns how many were there. */
  remove(urls: string[]): MaybePromise<number>;
  count(): MaybePromise<number>;
  stats(): MaybePromise<IndexStats>;
  /** Documents in url byte order, filtered by domain (with subdomains) and source, a page at a time. */
  list(q: IndexListQuery): MaybePromise<IndexListEntry[]>;
  /** Tidies storage after a large import (SQLite merges FTS5 segments; elsewhere nothing). */
  optimize(): MaybePromise<void>;
  close(): MaybePromise<void>;
}

/** What the search path reads: synchronous ranking, and a version that changes on every write seen. */
export interface LocalIndexReader {
  search(q: LocalSearch): LocalHit[];
  version(): string;
}

/** The whole local index as compose.ts holds it. */
export interface LocalIndexApi extends LocalIndexWriter, LocalIndexReader {
  /** Starts ranking in memory now rather than at the first search (a no-op where that is done at open). */
  startRanker(): void;
  /** Brings the in-memory ranking up to date with every write seen so far, now; false when searches are not ranked in memory. */
  syncRanker(): boolean;
  /** Whether searches are ranked in memory right now, and over how many documents. */
  rankerStatus(): { state: string; documents: number };
}
