import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { LRUCache } from 'lru-cache';
import { DocFrequency } from './doc-frequency.ts';
import { orOfTerms } from './fts-query.ts';
import type { DocumentRow, DocumentSource, IndexListEntry, IndexListQuery, IndexStats } from '../store/index-rows.ts';
import { checkDocuments, type IndexDocument } from './index-document.ts';
import type { LocalIndexApi } from './local-index-api.ts';
import { planSearch, rankInMemory, toHit, type RankWeights } from './memory-search.ts';
import { ensureSchema } from './schema.ts';
import { domainParams, StatementCache, type FilterShape } from './search-statements.ts';
import type { Filters } from './search-filters.ts';
import { makeSnippet, snippetMatcher, type SnippetMatcher } from './snippet.ts';
import { listDocuments } from './list-documents.ts';
import { readStats } from './stats.ts';
import { RankerSync } from './ranker/ranker-sync.ts';
import type { RankerMemory } from './ranker/memory-ranker.ts';
import type { LocalHit, LocalIndexOptions, LocalSearch } from './local-index-types.ts';

export type { IndexDocument } from './index-document.ts';
export type { LocalHit, LocalIndexOptions, LocalSearch } from './local-index-types.ts';
export type { LocalIndexApi, LocalIndexReader, LocalIndexWriter } from './local-index-api.ts';

interface Ranked {
  id: number;
  score: number;
}

interface DetailRow {
  id: number;
  url: string;
  title: string;
  domain: string;
  publishedDate: string | null;
  text: string;
}

/** Bound on the characters the result cache holds (full texts of the advanced depth add up). */
const CACHE_MAX_CHARS = 32 * 1024 * 1024;

const hitsChars = (hits: readonly LocalHit[]): number =>
  hits.reduce((n, h) => n + h.url.length + h.title.length + h.content.length + (h.text?.length ?? 0), 1);

/** Memory the in-memory ranker may use before spilling postings to disk: 1 GiB. */
export const DEFAULT_RANKER_BUDGET_BYTES = 1024 * 1024 * 1024;

const OPEN_START = '';
const OPEN_END = '9999-12-31';

/**
 * The embedded full-text index: SQLite FTS5 with BM25 (title-boosted), porter stemming,
 * an OR of quoted query terms (src/index/fts-query.ts) and a small bonus for documents
 * holding adjacent query terms as a phrase. Synchronous: one search is a handful of
 * prepared statements on this connection.
 */
export class LocalIndex implements LocalIndexApi {
  readonly #db: Database.Database;
  readonly #stmts: StatementCache;
  readonly #frequencies: DocFrequency;
  readonly #upsert: Database.Statement;
  readonly #upsertText: Database.Statement;
  readonly #sourceRows: Database.Statement;
  readonly #deleteUrl: Database.Statement;
  readonly #count: Database.Statement;
  readonly #dataVersion: Database.Statement;
  readonly #cache?: LRUCache<string, readonly LocalHit[]>;
  readonly #weights: RankWeights;
  readonly #ranker?: RankerSync;
  /** Bumped on every write of this connection; data_version covers other connections. */
  #generation = 0;

  constructor(db: Database.Database, options: LocalIndexOptions = {}) {
    this.#db = db;
    this.#stmts = new StatementCache(db);
    this.#frequencies = new DocFrequency(db);
    this.#upsert = db
      .prepare(
        `INSERT INTO documents (url, domain, published_date, published_day, language, country, source, indexed_at)
       VALUES (@url, @domain, @published_date, @published_day, @language, @country, @source, @indexed_at)
       ON CONFLICT(url) DO UPDATE SET domain = excluded.domain, published_date = excluded.published_date,
         published_day = excluded.published_day, language = excluded.language, country = excluded.country,
         source = excluded.source, indexed_at = excluded.indexed_at
       RETURNING id`,
      )
      .pluck();
    this.#upsertText = db.prepare(
      `INSERT INTO document_texts (id, title, content) VALUES (@id, @title, @content)
       ON CONFLICT(id) DO UPDATE SET title = excluded.title, content = excluded.content`,
    );
    this.#sourceRows = db.prepare(
      `SELECT d.url, d.domain, d.published_date, d.published_day, d.language, d.country, t.title, t.content
       FROM documents d JOIN document_texts t ON t.id = d.id WHERE d.source = ?`,
    );
    this.#deleteUrl = db.prepare('DELETE FROM documents WHERE url = ?');
    this.#count = db.prepare('SELECT count(*) FROM documents').pluck();
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck();
    const cacheSize = options.cacheSize ?? 1000;
    if (cacheSize > 0) {
      this.#cache = new LRUCache({ max: cacheSize, maxSize: CACHE_MAX_CHARS, sizeCalculation: hitsChars });
    }
    this.#weights = { proximityWeight: options.proximityWeight ?? 0.25, rerankWindow: options.rerankWindow ?? 100 };
    const budgetBytes = options.memoryBudgetBytes ?? DEFAULT_RANKER_BUDGET_BYTES;
    if (budgetBytes > 0) {
      this.#ranker = new RankerSync(db, {
        budgetBytes,
        ...(options.spillDir !== undefined ? { spillDir: options.spillDir } : {}),
        ...(options.onRankerChange ? { onChange: options.onRankerChange } : {}),
      });
    }
  }

  /** Validates every document first, then writes all in one transaction; a url replaces itself. */
  upsert(docs: IndexDocument[], source: DocumentSource = 'import'): number {
    return this.upsertRows(checkDocuments(docs), source);
  }

  /** Writes rows already checked by checkDocument, in one transaction. */
  upsertRows(rows: DocumentRow[], source: DocumentSource = 'import'): number {
    const indexedAt = new Date().toISOString();
    this.#db.transaction(() => {
      for (const { title, content, ...meta } of rows) {
        const id = this.#upsert.get({ ...meta, source, indexed_at: indexedAt }) as number;
        this.#upsertText.run({ id, title, content });
      }
    })();
    this.#generation++;
    return rows.length;
  }

  /**
   * Replaces every document of one source with `rows`, atomically (starter corpus refresh).
   * Only what differs is written: a second process starting on the same folder with the same
   * docs writes nothing, so a running server's documents, its ranker and its caches are left
   * as they are. Immediate, so no other writer slips in between the read and the writes.
   */
  replaceSource(source: DocumentSource, rows: DocumentRow[]): number {
    const wrote = this.#db
      .transaction(() => {
        const stored = new Map((this.#sourceRows.all(source) as DocumentRow[]).map((r) => [r.url, r]));
        const keep = new Set(rows.map((r) => r.url));
        const gone = [...stored.keys()].filter((url) => !keep.has(url));
        const changed = rows.filter((r) => !sameRow(stored.get(r.url), r));
        for (const url of gone) this.#deleteUrl.run(url);
        if (changed.length > 0) this.upsertRows(changed, source);
        return gone.length + changed.length > 0;
      })
      .immediate();
    if (wrote) this.#generation++;
    return rows.length;
  }

  /** Deletes the documents of these urls in one transaction; returns how many there were. */
  remove(urls: string[]): number {
    let removed = 0;
    this.#db.transaction(() => {
      for (const url of urls) removed += this.#deleteUrl.run(url).changes;
    })();
    this.#generation++;
    return removed;
  }

  /**
   * Best hits first. Never throws on the query text: one without any word returns []. Hits
   * are frozen (they may be shared with the result cache); the array is the caller's.
   */
  search(q: LocalSearch): LocalHit[] {
    const plan = planSearch(q);
    if (plan === undefined) return [];
    const version = this.version();
    const ranker = this.#ranker?.rankerFor(version);
    const { terms, phrases, filters, limit, offset, withText } = plan;
    // Ranked in memory a search costs tens of microseconds, about what remembering it
    // would: the result cache only fronts the FTS5 path. The page's texts come from the file.
    const inMemory = ranker && rankInMemory(ranker, plan, this.#weights);
    if (inMemory) return this.#details(inMemory, snippetMatcher(terms), withText);
    const key = JSON.stringify([version, plan.match, phrases, limit, offset, filters, withText]);
    const cached = this.#cache?.get(key);
    if (cached) return cached.slice();
    const ranked = this.#rank(
      { all: terms, informative: this.#frequencies.informative(terms, version) },
      phrases,
      filters,
      offset + limit,
    );
    const hits = this.#details(ranked.slice(offset, offset + limit), snippetMatcher(terms), withText);
    this.#cache?.set(key, hits);
    return hits.slice();
  }

  count(): number {
    return this.#count.get() as number;
  }

  stats(): IndexStats {
    return readStats(this.#db);
  }

  list(q: IndexListQuery): IndexListEntry[] {
    return listDocuments(this.#db, q);
  }

  /** Merges FTS5 segments into one b-tree: worth it after a large import. */
  optimize(): void {
    this.#db.exec(`INSERT INTO documents_fts(documents_fts) VALUES ('optimize')`);
  }

  /**
   * Brings the in-memory ranker up to date now (it otherwise catches up in the background
   * while FTS5 answers); false when it is off.
   */
  syncRanker(): boolean {
    return this.#ranker?.syncNow(this.version()) !== undefined;
  }

  /**
   * Starts the in-memory ranker now rather than at the first search: a small index is
   * loaded at once, a large one in the background (FTS5 answers until it is ready).
   */
  startRanker(): void {
    this.#ranker?.rankerFor(this.version());
  }

  /** Whether searches are ranked in memory right now, and over how many documents. */
  rankerStatus(): { state: string; documents: number } {
    return this.#ranker?.status() ?? { state: 'off', documents: 0 };
  }

  /** What the in-memory ranker holds in RAM and on disk (undefined when it is off). */
  rankerMemory(): RankerMemory | undefined {
    return this.#ranker?.ranker.memory();
  }

  close(): void {
    this.#ranker?.close();
    this.#cache?.clear();
    this.#db.close();
  }

  /**
   * Changes on every write to the index file: this connection's (a generation count) and any
   * other connection's or process's (SQLite's data_version). Caches in front key by it.
   */
  version(): string {
    return `${this.#dataVersion.get() as number}.${this.#generation}`;
  }

  /**
   * The SQL path (FTS5's bm25()), used while the in-memory ranker is not in step with the
   * file or is off; both rank alike (test/index/ranker/ranker-equivalence.test.ts).
   * The best `wanted` ids by BM25 under the filters, reordered by the proximity bonus.
   * Ranks on the informative terms (see DocFrequency); when they match fewer than `wanted`
   * documents, the rest comes from the full OR, in its order, which is where those
   * documents rank anyway (their common terms score ~0).
   */
  #rank(
    terms: { all: string[]; informative: string[] },
    phrases: string | undefined,
    f: Filters,
    wanted: number,
  ): Ranked[] {
    const rerank = phrases !== undefined && this.#weights.proximityWeight > 0;
    const shape: FilterShape = {
      include: f.include.length,
      exclude: f.exclude.length,
      dates: f.start !== undefined || f.end !== undefined,
      country: f.country !== undefined,
    };
    const stmt = this.#stmts.candidates(shape);
    const params = {
      limit: rerank ? Math.max(wanted, this.#weights.rerankWindow) : wanted,
      ...domainParams('i', f.include),
      ...domainParams('x', f.exclude),
      ...(shape.dates ? { start: f.start ?? OPEN_START, end: f.end ?? OPEN_END } : {}),
      ...(shape.country ? { country: f.country } : {}),
    };
    const ranked = stmt.all({ ...params, match: orOfTerms(terms.informative) }) as Ranked[];
    if (ranked.length < wanted && terms.informative.length < terms.all.length) {
      const seen = new Set(ranked.map((r) => r.id));
      for (const r of stmt.all({ ...params, match: orOfTerms(terms.all) }) as Ranked[]) {
        if (!seen.has(r.id)) ranked.push(r);
      }
    }
    return rerank && ranked.length > 1 ? this.#proximityRerank(ranked, phrases) : ranked;
  }

  /** Adds proximityWeight × BM25 of the query's adjacent-term phrases, then re-sorts. */
  #proximityRerank(ranked: Ranked[], phrases: string): Ranked[] {
    const bonus = new Map<number, number>();
    for (const row of this.#stmts.phrases.iterate({ phrases }) as IterableIterator<Ranked>) {
      bonus.set(row.id, row.score);
    }
    if (bonus.size === 0) return ranked;
    return ranked
      .map((r) => ({ id: r.id, score: r.score + this.#weights.proximityWeight * (bonus.get(r.id) ?? 0) }))
      .sort((a, b) => b.score - a.score);
  }

  #details(page: Ranked[], matcher: SnippetMatcher | undefined, withText: boolean): LocalHit[] {
    if (page.length === 0) return [];
    const rows = new Map<number, DetailRow>();
    for (const row of this.#stmts.details.all({ ids: JSON.stringify(page.map((r) => r.id)) }) as DetailRow[])
      rows.set(row.id, row);
    const hits: LocalHit[] = [];
    for (const r of page) {
      const row = rows.get(r.id);
      // A row deleted by another connection since it was ranked is just skipped.
      if (row === undefined) continue;
      hits.push(toHit({ ...row, content: row.text }, r.score, makeSnippet(row.text, matcher), withText));
    }
    return hits;
  }
}

/** Opens (creating when missing) an index file: WAL mode, schema checked once. */
export function openLocalIndex(file: string, options: LocalIndexOptions = {}): LocalIndex {
  return new LocalIndex(openIndexDatabase(file), options);
}

/** The index file's connection as every user of it sets it up. */
export function openIndexDatabase(file: string): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // `scout index import` may write while the server reads: wait for its lock, not fail.
    db.pragma('busy_timeout = 5000');
    ensureSchema(db);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

const ROW_FIELDS = [
  'url',
  'domain',
  'title',
  'content',
  'published_date',
  'published_day',
  'language',
  'country',
] as const;

/** Whether a stored row holds exactly these fields (undefined: not stored). */
function sameRow(stored: DocumentRow | undefined, row: DocumentRow): boolean {
  return stored !== undefined && ROW_FIELDS.every((f) => stored[f] === row[f]);
}
