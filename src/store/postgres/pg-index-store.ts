import type pg from 'pg';
import type { DocumentRow, IndexListEntry, IndexStats } from '../index-rows.ts';
import { inTransaction } from './in-transaction.ts';
import type { IndexChange, IndexDocumentStore } from '../ports.ts';
import { must } from '../../domain/must.ts';

/** Rows per INSERT statement: a few MB of parameters at most. */
const CHUNK = 500;

// One statement per chunk: the rows as parallel arrays, unnested. An unchanged row (same
// fields and source) is left alone, so it takes no sequence number and no replica re-reads
// it: a replica starting with the same docs/ rewrites the starter corpus as a no-op.
const UPSERT = `INSERT INTO index_documents AS d (url, domain, title, content, published_date, published_day, language, country, source)
  SELECT u.*, $9 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS u
  ON CONFLICT (url) DO UPDATE SET domain = excluded.domain, title = excluded.title, content = excluded.content,
    published_date = excluded.published_date, published_day = excluded.published_day, language = excluded.language,
    country = excluded.country, source = excluded.source, indexed_at = now()
  WHERE (d.domain, d.title, d.content, d.published_date, d.published_day, d.language, d.country, d.source)
    IS DISTINCT FROM (excluded.domain, excluded.title, excluded.content, excluded.published_date,
      excluded.published_day, excluded.language, excluded.country, excluded.source)`;

// An anti-join on the kept urls (a hash join for thousands of them), not `<> ALL`.
const DELETE_OTHERS = `DELETE FROM index_documents d WHERE d.source = $1
  AND NOT EXISTS (SELECT 1 FROM unnest($2::text[]) AS keep(url) WHERE keep.url = d.url)`;

const CHANGES = `SELECT seq, id, url, domain, title, content, published_date, published_day, country FROM index_documents WHERE seq > $1
  UNION ALL
  SELECT seq, id, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM index_deletions WHERE seq > $1
  ORDER BY seq LIMIT $2`;

const STATS = `SELECT count(*)::float8 AS documents, count(DISTINCT domain)::float8 AS domains,
    coalesce(sum(octet_length(title) + octet_length(content)), 0)::float8 AS text_bytes,
    count(published_date)::float8 AS dated, max(published_date) AS newest, min(published_date) AS oldest,
    pg_total_relation_size('index_documents')::float8 AS bytes,
    to_char(max(indexed_at) FILTER (WHERE source = 'import') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_import_at
  FROM index_documents`;

interface ChangeRow {
  seq: string;
  id: string;
  url: string | null;
  domain: string;
  title: string;
  content: string;
  published_date: string | null;
  published_day: string | null;
  country: string | null;
}

const toChange = (r: ChangeRow): IndexChange => {
  const id = Number(r.id);
  return {
    seq: Number(r.seq),
    id,
    doc:
      r.url === null
        ? null
        : {
            id,
            url: r.url,
            domain: r.domain,
            title: r.title,
            content: r.content,
            publishedDate: r.published_date,
            day: r.published_day,
            country: r.country,
          },
  };
};

/** The last row of each url, at the place of its first (ids come out in the order SQLite gives them). */
function lastPerUrl(rows: readonly DocumentRow[]): DocumentRow[] {
  const byUrl = new Map<string, DocumentRow>();
  for (const r of rows) byUrl.set(r.url, r);
  return byUrl.size === rows.length ? [...rows] : [...byUrl.values()];
}

async function upsertChunks(client: pg.PoolClient, rows: readonly DocumentRow[], source: string): Promise<void> {
  const unique = lastPerUrl(rows);
  for (let i = 0; i < unique.length; i += CHUNK) {
    const chunk = unique.slice(i, i + CHUNK);
    const column = (f: keyof DocumentRow): (string | null)[] => chunk.map((r) => r[f]);
    await client.query({
      name: 'scout_index_upsert',
      text: UPSERT,
      values: [
        column('url'),
        column('domain'),
        column('title'),
        column('content'),
        column('published_date'),
        column('published_day'),
        column('language'),
        column('country'),
        source,
      ],
    });
  }
}

/**
 * Runs `work` in a transaction holding index_write_lock (migration 002): writers take turns,
 * so sequence numbers are handed out in commit order. Index writes are imports and the
 * starter corpus, rare enough that taking turns costs nothing noticeable.
 */
async function writing<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(
    pool,
    async (client) => {
      await client.query('LOCK TABLE index_write_lock IN EXCLUSIVE MODE');
      return work(client);
    },
    1,
  );
}

export interface PostgresIndexStoreOptions {
  /** close() ends the pool too (a `scout index` run that opened a pool for this store alone). Default false. */
  endPool?: boolean;
}

/**
 * The local index's documents in PostgreSQL (migration 002), for every replica to rank in
 * memory (src/index/follower-index.ts). The pool's connections have search_path set to the
 * schema (store/postgres/open-postgres.ts); it is the caller's, left open by close() unless
 * `endPool`.
 */
export function createPostgresIndexStore(pool: pg.Pool, options: PostgresIndexStoreOptions = {}): IndexDocumentStore {
  return {
    async upsert(rows, source) {
      if (rows.length > 0) await writing(pool, (c) => upsertChunks(c, rows, source));
      return rows.length;
    },

    async replaceSource(source, rows) {
      await writing(pool, async (c) => {
        await upsertChunks(c, rows, source);
        await c.query(DELETE_OTHERS, [source, rows.map((r) => r.url)]);
      });
      return rows.length;
    },

    async remove(urls) {
      if (urls.length === 0) return 0;
      return writing(
        pool,
        async (c) => (await c.query('DELETE FROM index_documents WHERE url = ANY($1::text[])', [urls])).rowCount ?? 0,
      );
    },

    async changesSince(seq, limit) {
      const { rows } = await pool.query<ChangeRow>({
        name: 'scout_index_changes',
        text: CHANGES,
        values: [seq, limit],
      });
      return rows.map(toChange);
    },

    async latestSeq() {
      const { rows } = await pool.query<{ seq: string }>(
        'SELECT greatest((SELECT max(seq) FROM index_documents), (SELECT max(seq) FROM index_deletions), 0) AS seq',
      );
      return Number(must(rows[0], 'the row of the latest sequence number').seq);
    },

    async count() {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::float8 AS n FROM index_documents');
      return must(rows[0], 'the row of the document count').n;
    },

    async list(q) {
      const { rows } = await pool.query<IndexListEntry>(
        `SELECT url, title, domain, source, published_date FROM index_documents
         WHERE ($1::text IS NULL OR domain = $1 OR right(domain, length($1) + 1) = '.' || $1)
           AND ($2::text IS NULL OR source = $2) AND ($3::text IS NULL OR url > $3)
         ORDER BY url LIMIT $4`,
        [q.domain ?? null, q.source ?? null, q.after ?? null, q.limit],
      );
      return rows;
    },

    async stats(): Promise<IndexStats> {
      const [totals, sources] = await Promise.all([
        pool.query<{
          documents: number;
          domains: number;
          text_bytes: number;
          dated: number;
          newest: string | null;
          oldest: string | null;
          bytes: number;
          last_import_at: string | null;
        }>(STATS),
        pool.query<{ source: string; n: number }>(
          'SELECT source, count(*)::float8 AS n FROM index_documents GROUP BY source ORDER BY source',
        ),
      ]);
      const t = must(totals.rows[0], 'the row of the index totals');
      return {
        documents: t.documents,
        domains: t.domains,
        bytes: t.bytes,
        textBytes: t.text_bytes,
        dated: t.dated,
        ...(t.newest !== null ? { newest: t.newest } : {}),
        ...(t.oldest !== null ? { oldest: t.oldest } : {}),
        ...(t.last_import_at !== null ? { lastImportAt: t.last_import_at } : {}),
        sources: Object.fromEntries(sources.rows.map((s) => [s.source, s.n])),
      };
    },

    async close() {
      if (options.endPool) await pool.end();
    },
  };
}
