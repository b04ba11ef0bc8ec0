import type { DocumentRow, DocumentSource, IndexListEntry, IndexListQuery, IndexStats } from '../store/index-rows.ts';
import type { IndexDocumentStore } from '../store/ports.ts';
import { checkDocuments, type IndexDocument } from './index-document.ts';
import type { LocalIndexWriter } from './local-index-api.ts';

/**
 * The local index's writes over a document store (PostgreSQL), with nothing ranked: what
 * `scout index` needs, so the CLI does not load the whole index into memory to add to it.
 * FollowerIndex extends it with the in-memory ranking.
 */
export class StoreIndexWriter implements LocalIndexWriter {
  protected readonly store: IndexDocumentStore;

  constructor(store: IndexDocumentStore) {
    this.store = store;
  }

  async upsert(docs: IndexDocument[], source: DocumentSource = 'import'): Promise<number> {
    return this.upsertRows(checkDocuments(docs), source);
  }

  async upsertRows(rows: DocumentRow[], source: DocumentSource = 'import'): Promise<number> {
    const n = await this.store.upsert(rows, source);
    await this.written();
    return n;
  }

  async replaceSource(source: DocumentSource, rows: DocumentRow[]): Promise<number> {
    const n = await this.store.replaceSource(source, rows);
    await this.written();
    return n;
  }

  async remove(urls: string[]): Promise<number> {
    const n = await this.store.remove(urls);
    await this.written();
    return n;
  }

  count(): Promise<number> {
    return this.store.count();
  }

  stats(): Promise<IndexStats> {
    return this.store.stats();
  }

  list(q: IndexListQuery): Promise<IndexListEntry[]> {
    return this.store.list(q);
  }

  /** Nothing to tidy: PostgreSQL's autovacuum looks after its tables. */
  async optimize(): Promise<void> {}

  close(): Promise<void> {
    return this.store.close();
  }

  /** After each committed write (a subclass makes it visible to its own searches). */
  protected async written(): Promise<void> {}
}
