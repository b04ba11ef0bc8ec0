/**
 * The local index's document store: where its documents live when they are shared by
 * several Scout processes (PostgreSQL), read by every replica's in-memory ranker through a
 * change sequence. To be folded into ports.ts.
 */
import type { DocumentRow } from '../index/index-document.ts';
import type { DocumentSource } from '../index/local-index-types.ts';
import type { RankerDocument } from '../index/ranker/ranker-types.ts';
import type { IndexStats } from '../index/stats.ts';

/**
 * One entry of the change sequence: the document `id` as it is now (`doc`), or deleted
 * (`doc` null). Each id appears once, at the sequence number of its latest change.
 */
export interface IndexChange {
  seq: number;
  id: number;
  doc: RankerDocument | null;
}

export interface IndexDocumentStore {
  /**
   * Writes rows in one transaction; a url replaces itself (its id is kept), the last row of
   * a url wins. A row equal to the stored one (text, fields and source) is no change: it
   * takes no new sequence number. Returns rows.length.
   */
  upsert(rows: DocumentRow[], source: DocumentSource): Promise<number>;
  /**
   * Makes `rows` the whole of `source`, in one transaction: urls of the source not in
   * `rows` are deleted, unchanged rows are no change. Returns rows.length.
   */
  replaceSource(source: DocumentSource, rows: DocumentRow[]): Promise<number>;
  /** Deletes the documents of these urls; returns how many there were. */
  remove(urls: string[]): Promise<number>;
  /**
   * Changes past sequence number `seq`, in sequence order, at most `limit`. Reading from 0
   * in pages yields every live document (and deletions, harmless to apply). A change
   * committed after a page was read always comes after it: the store hands out sequence
   * numbers in commit order.
   */
  changesSince(seq: number, limit: number): Promise<IndexChange[]>;
  /** The sequence number of the latest committed change; 0 when none. */
  latestSeq(): Promise<number>;
  count(): Promise<number>;
  stats(): Promise<IndexStats>;
  /** Releases what the store opened itself (a pool handed in stays open). */
  close(): Promise<void>;
}
