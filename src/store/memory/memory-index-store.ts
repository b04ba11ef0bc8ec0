import type { DocumentRow, DocumentSource, IndexStats, RankerDocument } from '../index-rows.ts';
import type { IndexChange, IndexDocumentStore } from '../ports.ts';

interface Stored {
  id: number;
  row: DocumentRow;
  source: DocumentSource;
  /** When the row was last written with a change (ISO 8601). */
  indexedAt: string;
}

const sameRow = (a: Stored, row: DocumentRow, source: DocumentSource): boolean =>
  a.source === source &&
  a.row.domain === row.domain &&
  a.row.title === row.title &&
  a.row.content === row.content &&
  a.row.published_date === row.published_date &&
  a.row.published_day === row.published_day &&
  a.row.language === row.language &&
  a.row.country === row.country;

const toDoc = ({ id, row }: Stored): RankerDocument => ({
  id,
  url: row.url,
  domain: row.domain,
  title: row.title,
  content: row.content,
  publishedDate: row.published_date,
  day: row.published_day,
  country: row.country,
});

const utf8 = (s: string | null): number => (s === null ? 0 : Buffer.byteLength(s));

/**
 * The reference IndexDocumentStore, in one process. Every write runs to its end in one tick,
 * so it is atomic and its sequence numbers are in commit order. As in PostgreSQL: a url keeps
 * its id while it lives, an unchanged row takes no number, a deleted id stays in the
 * sequence as a deletion.
 */
export function createMemoryIndexStore(): IndexDocumentStore {
  const byUrl = new Map<string, Stored>();
  /** Each id once, at its latest change; re-inserted on every change, so in sequence order. */
  const changes = new Map<number, { seq: number; stored: Stored | null }>();
  let lastId = 0;
  let lastSeq = 0;

  const changed = (id: number, stored: Stored | null): void => {
    changes.delete(id);
    changes.set(id, { seq: ++lastSeq, stored });
  };

  function write(rows: readonly DocumentRow[], source: DocumentSource): void {
    // The last row of a url wins, at the place of its first (as PostgreSQL's store hands out ids).
    const lastPerUrl = new Map<string, DocumentRow>();
    for (const r of rows) lastPerUrl.set(r.url, r);
    for (const r of lastPerUrl.values()) {
      const old = byUrl.get(r.url);
      if (old && sameRow(old, r, source)) continue;
      // A copy: the caller's row may change after the write.
      const stored: Stored = { id: old?.id ?? ++lastId, row: { ...r }, source, indexedAt: new Date().toISOString() };
      byUrl.set(r.url, stored);
      changed(stored.id, stored);
    }
  }

  function drop(url: string): boolean {
    const old = byUrl.get(url);
    if (!old) return false;
    byUrl.delete(url);
    changed(old.id, null);
    return true;
  }

  return {
    async upsert(rows, source) {
      write(rows, source);
      return rows.length;
    },

    async replaceSource(source, rows) {
      write(rows, source);
      const keep = new Set(rows.map((r) => r.url));
      for (const [url, s] of [...byUrl]) if (s.source === source && !keep.has(url)) drop(url);
      return rows.length;
    },

    async remove(urls) {
      let removed = 0;
      for (const url of new Set(urls)) if (drop(url)) removed++;
      return removed;
    },

    async changesSince(seq, limit) {
      const out: IndexChange[] = [];
      for (const [id, c] of changes) {
        if (out.length >= limit) break;
        if (c.seq > seq) out.push({ seq: c.seq, id, doc: c.stored ? toDoc(c.stored) : null });
      }
      return out;
    },

    async latestSeq() {
      return lastSeq;
    },

    async count() {
      return byUrl.size;
    },

    async list(q) {
      const inDomain = (d: string) => q.domain === undefined || d === q.domain || d.endsWith(`.${q.domain}`);
      return [...byUrl.values()]
        .filter(
          ({ row, source }) =>
            inDomain(row.domain) &&
            (q.source === undefined || source === q.source) &&
            (q.after === undefined || row.url > q.after),
        )
        .sort((a, b) => (a.row.url < b.row.url ? -1 : a.row.url > b.row.url ? 1 : 0))
        .slice(0, q.limit)
        .map(({ row, source }) => ({
          url: row.url,
          title: row.title,
          domain: row.domain,
          source,
          published_date: row.published_date,
        }));
    },

    async stats(): Promise<IndexStats> {
      const domains = new Set<string>();
      const sources: Record<string, number> = {};
      let textBytes = 0;
      let bytes = 0;
      let dated = 0;
      let newest: string | undefined;
      let oldest: string | undefined;
      let lastImportAt: string | undefined;
      for (const { row, source, indexedAt } of byUrl.values()) {
        if (source === 'import' && (lastImportAt === undefined || indexedAt > lastImportAt)) lastImportAt = indexedAt;
        domains.add(row.domain);
        sources[source] = (sources[source] ?? 0) + 1;
        const text = utf8(row.title) + utf8(row.content);
        textBytes += text;
        // What the rows hold, standing in for a database's size on disk.
        bytes +=
          text +
          utf8(row.url) +
          utf8(row.domain) +
          utf8(row.published_date) +
          utf8(row.published_day) +
          utf8(row.language) +
          utf8(row.country);
        const date = row.published_date;
        if (date !== null) {
          dated++;
          if (newest === undefined || date > newest) newest = date;
          if (oldest === undefined || date < oldest) oldest = date;
        }
      }
      return {
        documents: byUrl.size,
        domains: domains.size,
        bytes,
        textBytes,
        dated,
        ...(newest !== undefined ? { newest } : {}),
        ...(oldest !== undefined ? { oldest } : {}),
        ...(lastImportAt !== undefined ? { lastImportAt } : {}),
        sources: Object.fromEntries(Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))),
      };
    },

    async close() {},
  };
}
