import { settings } from '../../config/settings.ts';
import { OVERFETCH_CAP } from '../../search/result-filter.ts';
import type { ProviderResult, SearchQuery } from '../../search/search-types.ts';
import { honoursOf } from '../adapter-kit.ts';
import type { SearchProvider } from '../provider.ts';
import { describeProvider } from '../provider-descriptor.ts';
import {
  ClusterClient,
  malformedAnswer,
  ok,
  OPENSEARCH,
  statusError,
  type ClusterClientOptions,
} from './cluster-client.ts';
import { openSearchConnection, type OpenSearchConnection } from './connection.ts';
import { openSearchSettings } from './opensearch-settings.ts';
import { openSearchBody } from './search-body.ts';
import { parseSearchResponse } from './search-response.ts';

const HONOURS = honoursOf('domains', 'dates', 'country');

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
export function createOpenSearchProvider(
  conn: OpenSearchConnection,
  options: OpenSearchProviderOptions = {},
): SearchProvider {
  const client = new ClusterClient(conn, options);
  const now = options.now ?? (() => new Date());
  const path = `/${encodeURIComponent(conn.index)}/_search`;
  return {
    name: OPENSEARCH,
    honours: HONOURS,
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

export const openSearchProvider = describeProvider({
  name: OPENSEARCH,
  settings: openSearchSettings,
  requires: { setting: 'opensearchUrl', as: "to the cluster's node URLs (e.g. http://localhost:9200)" },
  honours: HONOURS,
  // search-body.ts asks for up to this many (`size`).
  maxResults: OVERFETCH_CAP,
  build: (c, deps) =>
    createOpenSearchProvider(openSearchConnection(c, `${settings.searchProviders.env} lists ${OPENSEARCH}`), deps),
});
