import type Database from 'better-sqlite3';

/**
 * The SQL of a local search, prepared once per shape of filters and kept on the index, so
 * a search does no SQL parsing.
 *
 * Ranking is `ORDER BY bm25() LIMIT`: with no filter the FTS index is read alone (measured
 * faster than FTS5's `ORDER BY rank`); with filters, FTS rows are joined to the narrow
 * `documents` table and filtered in SQL before bm25() is computed, so max_results is met
 * after filtering and rejected rows cost no scoring.
 */

/** BM25 column weights: a title hit counts as this many content hits (BM25F-style). */
export const TITLE_WEIGHT = 3;
const BM25 = `-bm25(documents_fts, ${TITLE_WEIGHT}.0, 1.0)`;

/** Domain lists up to this long are tested inline in SQL; longer ones by a JS function. */
export const INLINE_DOMAINS = 32;
/** Distinct statement shapes kept; the oldest is dropped past this. */
const MAX_SHAPES = 128;

export interface FilterShape {
  include: number;
  exclude: number;
  dates: boolean;
  country: boolean;
}

/**
 * A domain matches itself and its subdomains. Inline: `d.domain = @i0 OR substr(d.domain,
 * -@i0n) = @i0s` where i0s is `.` + domain and i0n its length, computed in JS, so the row
 * test is two string compares (substr also avoids LIKE's `_` wildcard); measured ~2x
 * cheaper than a JS function or json_each per row. Long lists use scout_domain_in.
 */
function domainTest(prefix: 'i' | 'x', n: number): string {
  if (n > INLINE_DOMAINS) return `scout_domain_in(d.domain, @${prefix}list)`;
  const ors = Array.from(
    { length: n },
    (_, k) => `d.domain = @${prefix}${k} OR substr(d.domain, -@${prefix}${k}n) = @${prefix}${k}s`,
  );
  return `(${ors.join(' OR ')})`;
}

/**
 * `scout_domain_in(domain, json_list)`: 1 when the domain or one of its parent domains is in
 * the list. The parsed list is kept while consecutive rows pass the same JSON text.
 */
function registerDomainFunction(db: Database.Database): void {
  let lastJson: unknown;
  let set = new Set<string>();
  db.function('scout_domain_in', { deterministic: true }, (domain: unknown, json: unknown) => {
    if (json !== lastJson) {
      lastJson = json;
      set = new Set(JSON.parse(String(json)) as string[]);
    }
    for (let host = String(domain); ; ) {
      if (set.has(host)) return 1;
      const dot = host.indexOf('.');
      if (dot < 0) return 0;
      host = host.slice(dot + 1);
    }
  });
}

function filterSql(f: FilterShape): string {
  const parts: string[] = [];
  if (f.include > 0) parts.push(domainTest('i', f.include));
  if (f.exclude > 0) parts.push(`NOT ${domainTest('x', f.exclude)}`);
  // Documents without a date never pass a date filter; a missing bound is passed as an
  // open one ('' and '9999-12-31'), so one statement serves start, end or both.
  if (f.dates) parts.push('d.published_day BETWEEN @start AND @end');
  // Documents without a country pass a country filter.
  if (f.country) parts.push('(d.country IS NULL OR d.country = @country)');
  return parts.join(' AND ');
}

/** Parameters for the domain tests of one list (see domainTest). */
export function domainParams(prefix: 'i' | 'x', domains: string[]): Record<string, string | number> {
  if (domains.length > INLINE_DOMAINS) return { [`${prefix}list`]: JSON.stringify(domains) };
  const out: Record<string, string | number> = {};
  domains.forEach((d, k) => {
    out[`${prefix}${k}`] = d;
    out[`${prefix}${k}s`] = `.${d}`;
    out[`${prefix}${k}n`] = d.length + 1;
  });
  return out;
}

export class StatementCache {
  readonly #db: Database.Database;
  readonly #byShape = new Map<string, Database.Statement>();
  /** Score of the adjacency phrases of a query, over the whole index. Rows {id, score}. */
  readonly phrases: Database.Statement;
  /** Shown fields and stored text of a page of ranked ids (a JSON array); the snippet is cut from the text. */
  readonly details: Database.Statement;

  constructor(db: Database.Database) {
    this.#db = db;
    registerDomainFunction(db);
    this.phrases = db.prepare(
      `SELECT rowid AS id, ${BM25} AS score FROM documents_fts WHERE documents_fts MATCH @phrases`,
    );
    // One statement for a whole page: each statement is a read transaction of its own
    // (file locks, WAL index check), which cost more than the rows on a page.
    this.details = db.prepare(
      `SELECT d.id, d.url, t.title, d.domain, d.published_date AS publishedDate, t.content AS text
       FROM documents d JOIN document_texts t ON t.id = d.id WHERE d.id IN (SELECT value FROM json_each(@ids))`,
    );
  }

  /** Ranked ids, best first: params match, limit and the filters' params. Rows {id, score}. */
  candidates(f: FilterShape): Database.Statement {
    const key = `${f.include}/${f.exclude}/${f.dates ? 1 : 0}${f.country ? 1 : 0}`;
    let stmt = this.#byShape.get(key);
    if (stmt) return stmt;
    const where = filterSql(f);
    stmt = this.#db.prepare(
      where === ''
        ? `SELECT rowid AS id, ${BM25} AS score FROM documents_fts
           WHERE documents_fts MATCH @match ORDER BY score DESC LIMIT @limit`
        : `SELECT d.id AS id, ${BM25} AS score
           FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid
           WHERE documents_fts MATCH @match AND ${where} ORDER BY score DESC LIMIT @limit`,
    );
    if (this.#byShape.size >= MAX_SHAPES) this.#byShape.delete(this.#byShape.keys().next().value as string);
    this.#byShape.set(key, stmt);
    return stmt;
  }
}
