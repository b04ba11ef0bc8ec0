/**
 * The records of the local index's document store (IndexDocumentStore in ports.ts): what goes
 * in, what the change sequence and the listings give back. They belong to the port, so every
 * backend and the index above it share one spelling; the index room imports them from here.
 */

/** A validated document, ready for a row of the documents table (index/index-document.ts checks it). */
export interface DocumentRow {
  url: string;
  domain: string;
  title: string;
  content: string;
  published_date: string | null;
  published_day: string | null;
  language: string | null;
  country: string | null;
}

/** Where rows came from: `scout index import` (or upsert) vs the docs/ starter corpus. */
export type DocumentSource = 'import' | 'starter';

/** A document as the ranker takes it (a row of documents ⋈ document_texts; the change sequence's `doc`). */
export interface RankerDocument {
  id: number;
  url: string;
  title: string;
  content: string;
  domain: string;
  publishedDate: string | null;
  /** UTC day of published_date (YYYY-MM-DD), or null. */
  day: string | null;
  country: string | null;
}

/** `scout index list`: documents in url order (byte order), a page at a time. */
export interface IndexListQuery {
  /** A host name: matches itself and its subdomains. */
  domain?: string;
  source?: DocumentSource;
  /** Only urls after this one (the last of the previous page). */
  after?: string;
  limit: number;
}

export interface IndexListEntry {
  url: string;
  title: string;
  domain: string;
  source: DocumentSource;
  published_date: string | null;
}

/** `scout index stats` and health output: what the index holds. */
export interface IndexStats {
  documents: number;
  /** Distinct hosts (without www.). */
  domains: number;
  /** Size of the database file (pages in use), in bytes. */
  bytes: number;
  /** UTF-8 bytes of stored titles and texts. */
  textBytes: number;
  /** Documents that have a published_date. */
  dated: number;
  /** Latest and earliest published_date (ISO 8601), when any document has one. */
  newest?: string;
  oldest?: string;
  /** Documents per source: `import` (scout index import, upsert) and `starter` (docs/). */
  sources: Record<string, number>;
  /** When a document of source `import` (scout index import, add or crawl) was last written (ISO 8601), when any is stored. */
  lastImportAt?: string;
}
