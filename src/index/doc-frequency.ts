import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/**
 * Which query terms can move a BM25 score at all. FTS5's bm25() floors the IDF of a term
 * found in half the documents or more to 1e-6 (fts5_aux.c: `log((N - n + 0.5) / (n +
 * 0.5))`, negative past N/2), so such a term adds nothing to any score, yet ORing it in
 * makes FTS5 score nearly every document: one "one" or "all" in a query cost ~6 ms on
 * 10k documents instead of ~0.3 ms. Dropping those terms leaves the ranking of every
 * document that matches another term unchanged. When every term is that common, all are
 * kept (on a small index, a word like "scout" may be in most documents and is still what
 * the user asked for).
 *
 * Document frequencies come from FTS5 itself (a count over the term's doclist, so the
 * index's tokenizer and stemmer apply) and are remembered until the index changes.
 */
/**
 * The rule above, for any query-word representation (the SQL path's words here, the
 * in-memory ranker's term ids): the items found in some but fewer than half of the
 * `documents`, or all items when there is none such (or fewer than two items).
 */
export function informativeOf<T>(items: readonly T[], frequency: (item: T) => number, documents: number): T[] {
  if (items.length < 2) return [...items];
  const kept = items.filter((x) => {
    const n = frequency(x);
    return n > 0 && 2 * n < documents;
  });
  return kept.length > 0 ? kept : [...items];
}

export class DocFrequency {
  readonly #count: Database.Statement;
  readonly #total: Database.Statement;
  readonly #cache = new LRUCache<string, number>({ max: 20_000 });
  #version = '';
  #documents = 0;

  constructor(db: Database.Database) {
    this.#count = db.prepare('SELECT count(*) FROM documents_fts WHERE documents_fts MATCH ?').pluck();
    this.#total = db.prepare('SELECT count(*) FROM documents').pluck();
  }

  /**
   * The terms found in some but fewer than half of the documents, or all terms when there
   * is no such term (terms found nowhere are dropped too: they match nothing).
   */
  informative(terms: string[], version: string): string[] {
    if (terms.length < 2) return terms;
    if (version !== this.#version) {
      this.#cache.clear();
      this.#version = version;
      this.#documents = this.#total.get() as number;
    }
    return informativeOf(terms, (t) => this.#frequency(t), this.#documents);
  }

  #frequency(term: string): number {
    let n = this.#cache.get(term);
    if (n === undefined) {
      n = this.#count.get(`"${term.replaceAll('"', '""')}"`) as number;
      this.#cache.set(term, n);
    }
    return n;
  }
}
