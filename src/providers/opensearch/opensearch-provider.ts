import type { ProviderResult, SearchQuery } from '../../search/search-types.ts';
import { honoursOf } from '../adapter-kit.ts';
import type { SearchProvider } from '../provider.ts';
import { ClusterClient, malformedAnswer, ok, OPENSEARCH, statusError, type ClusterClientOptions } from './cluster-client.ts';
import type { OpenSearchConnection } from './connection.ts';
import { openSearchBody } from './search-body.ts';
import { parseSearchResponse } from './search-response.ts';

export interface OpenSearchProviderOptions extends ClusterClientOptions {
  /** Clock for freshness windows and relative dates; tests pin it. */
  now?: () => Date;
}

/**
 * An OpenSearch (or Elasticsearch 8) index filled by `scout index … --to opensearch`, as a
 * search provider (docs/opensearch.md): `POST /<index>/_search` on the next node in turn,
 * failing over between nodes within the registry's time limit. It applies every filter
 * itself (search-body.ts), like the local index, so Scout never over-fetches from it; its
 * URLs are the imported ones, unique per document, so they are kept as they are.
 */
export function createOpenSearchProvider(conn: OpenSearchConnection, options: OpenSearchProviderOptions = {}): SearchProvider {
  const client = new ClusterClient(conn, options);
  const now = options.now ?? (() => new Date());
  const path = `/${encodeURIComponent(conn.index)}/_search`;
  return {
    name: OPENSEARCH,
    honours: honoursOf('domains', 'dates', 'country'),
    uniqueUrls: true,
    async search(query: SearchQuery, signal: AbortSignal): Promise<ProviderResult[]> {
      const at = now();
      const res = await client.request({ method: 'POST', path, json: openSearchBody(query, at), signal });
      if (!ok(res)) throw statusError(res, client.secrets);
      if (res.body === undefined) throw malformedAnswer(res, client.secrets);
      return parseSearchResponse(res.body, at, query.depth === 'advanced');
    },
  };
}
