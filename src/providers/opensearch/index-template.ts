import { B, K1 } from '../../index/ranker/bm25.ts';
import { STOP_WORDS } from '../../content/stop-words.ts';
import { ok, statusError, type ClusterClient } from './cluster-client.ts';

/**
 * The index template Scout puts for its index (`PUT _index_template/<index>`, the same API
 * on OpenSearch and Elasticsearch 8), so the index, whether Scout or the cluster creates it,
 * analyses and ranks text like the local index:
 * - text: the standard tokenizer, possessive `'s` dropped, lower case, diacritics folded,
 *   Porter stemming (the local index's `porter unicode61 remove_diacritics 2`); at query time
 *   also the local index's stop words, dropped from queries, never from the index;
 * - ranking: BM25 with the local ranker's k1 and b, named so no cluster default changes it;
 * - keyword fields for the filters: `domain`, `domain_ancestors` (the host and every parent
 *   domain, so a domain filter matches subdomains with exact terms), `country`, `language`,
 *   `source`; dates for `published_date` and `indexed_at`;
 * - `content` indexed with offsets, so the unified highlighter reads positions from the
 *   index instead of re-analysing up to 200 000 characters per hit.
 * Unknown fields are kept in `_source` but not indexed (`dynamic: false`). Shards and
 * replicas are the operator's (SCOUT_OPENSEARCH_SHARDS/REPLICAS), else the cluster's defaults.
 */

/** Bumped whenever the template changes; `version` on the template tells operators which one an index got. */
export const TEMPLATE_VERSION = 1;

/** Above the built-in templates of Elasticsearch 8 (priority 100 and below), so this one wins for its own index name. */
const PRIORITY = 200;

const TEXT = { type: 'text', analyzer: 'scout_text', search_analyzer: 'scout_query', similarity: 'scout_bm25' };

export function indexTemplate(index: string, o: { shards?: number; replicas?: number } = {}): Record<string, unknown> {
  const indexSettings: Record<string, unknown> = {
    similarity: { scout_bm25: { type: 'BM25', k1: K1, b: B } },
    analysis: {
      filter: {
        scout_possessive: { type: 'stemmer', language: 'possessive_english' },
        scout_stop: { type: 'stop', stopwords: [...STOP_WORDS].sort() },
      },
      analyzer: {
        scout_text: {
          type: 'custom',
          tokenizer: 'standard',
          filter: ['scout_possessive', 'lowercase', 'asciifolding', 'porter_stem'],
        },
        scout_query: {
          type: 'custom',
          tokenizer: 'standard',
          filter: ['scout_possessive', 'lowercase', 'asciifolding', 'scout_stop', 'porter_stem'],
        },
      },
    },
  };
  if (o.shards !== undefined) indexSettings.number_of_shards = o.shards;
  if (o.replicas !== undefined) indexSettings.number_of_replicas = o.replicas;
  return {
    index_patterns: [index],
    priority: PRIORITY,
    version: TEMPLATE_VERSION,
    _meta: { managed_by: 'scout', description: 'Scout pages: docs/opensearch.md' },
    template: {
      settings: { index: indexSettings },
      mappings: {
        dynamic: false,
        properties: {
          url: { type: 'keyword' },
          title: TEXT,
          content: { ...TEXT, index_options: 'offsets' },
          domain: { type: 'keyword' },
          domain_ancestors: { type: 'keyword' },
          published_date: { type: 'date', format: 'strict_date_optional_time' },
          country: { type: 'keyword' },
          language: { type: 'keyword' },
          source: { type: 'keyword' },
          indexed_at: { type: 'date', format: 'strict_date_optional_time' },
        },
      },
    },
  };
}

export interface EnsureResult {
  /** True when this call created the index (false: it, or an alias of that name, was there). */
  created: boolean;
}

/**
 * Puts the template (PUT replaces it with the same body: idempotent) and creates the index
 * when there is none of that name, so it takes the template now rather than at the first
 * write. An index that already exists keeps the mappings it was created with: Scout does not
 * change them (docs/opensearch.md says how to reindex). Fails with the cluster's status and
 * error type.
 */
export async function ensureIndex(
  client: ClusterClient,
  o: { shards?: number; replicas?: number },
  signal: AbortSignal,
): Promise<EnsureResult> {
  const name = encodeURIComponent(client.index);
  const put = await client.request({
    method: 'PUT',
    path: `/_index_template/${name}`,
    json: indexTemplate(client.index, o),
    signal,
  });
  if (!ok(put)) throw statusError(put, client.secrets);
  // HEAD answers 200 for an index or an alias of that name, 404 for neither.
  const head = await client.request({ method: 'HEAD', path: `/${name}`, signal });
  if (head.status === 200) return { created: false };
  if (head.status !== 404) throw statusError(head, client.secrets);
  const create = await client.request({ method: 'PUT', path: `/${name}`, signal });
  if (ok(create)) return { created: true };
  // Created meanwhile by another writer: what was wanted.
  const type = (create.body as { error?: { type?: unknown } } | undefined)?.error?.type;
  if (create.status === 400 && type === 'resource_already_exists_exception') return { created: false };
  throw statusError(create, client.secrets);
}
