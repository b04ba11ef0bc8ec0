import { createHash } from 'node:crypto';
import type { DocumentRow, DocumentSource } from '../../store/index-rows.ts';

/**
 * A validated document (checkDocument's DocumentRow, the local index's own validation) as
 * the two NDJSON lines of a `_bulk` `index` action.
 */

/**
 * The document's `_id`: SHA-256 of its stored url, hex. Stable, so importing a url again
 * replaces its document as the local index's url upsert does; a hash because urls may be
 * 2048 characters and OpenSearch ids at most 512 bytes. `echo -n <url> | sha256sum` finds one.
 */
export const documentId = (url: string): string => createHash('sha256').update(url).digest('hex');

/**
 * The host and each of its parent domains, `docs.example.com` → `docs.example.com`,
 * `example.com`, `com`: a `terms` filter on them matches a domain and its subdomains exactly,
 * as the local index's suffix test does (src/domain/domains.ts hostMatches).
 */
export function domainAncestors(domain: string): string[] {
  const out: string[] = [];
  for (let host = domain; host !== ''; ) {
    out.push(host);
    const dot = host.indexOf('.');
    if (dot < 0) break;
    host = host.slice(dot + 1);
  }
  return out;
}

/** The `_source` Scout writes; absent optional fields are left out, so `exists` means "has one". */
export function pageSource(row: DocumentRow, source: DocumentSource, indexedAt: string): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    url: row.url,
    title: row.title,
    content: row.content,
    domain: row.domain,
    domain_ancestors: domainAncestors(row.domain),
  };
  if (row.published_date !== null) doc.published_date = row.published_date;
  if (row.country !== null) doc.country = row.country;
  if (row.language !== null) doc.language = row.language;
  doc.source = source;
  doc.indexed_at = indexedAt;
  return doc;
}

/** `{"index":{"_id":…}}\n{…source…}\n`; the index is named by the request path. */
export function bulkLines(id: string, doc: Record<string, unknown>): string {
  return `${JSON.stringify({ index: { _id: id } })}\n${JSON.stringify(doc)}\n`;
}
