import { int, optionalInt, str, urlList, type Parser } from '../../config/parsers.ts';
import { s } from '../../config/setting.ts';

/**
 * An OpenSearch / Elasticsearch index or alias name Scout can put in a URL path as it is:
 * lower case letters, digits, `.`, `_`, `-`, starting with a letter or digit (stricter than
 * the engines' own rule, which also allows `+`, `!`, `$` and others that need escaping).
 */
const indexName: Parser<string> = (raw) => {
  const v = raw.trim();
  if (!/^[a-z0-9][a-z0-9._-]{0,254}$/.test(v)) {
    throw new Error(
      `must be an index name of lower case letters, digits, ".", "_" and "-" (starting with a letter or digit), got "${raw}"`,
    );
  }
  return v;
};

/**
 * The cluster's settings: the opensearch provider's (its descriptor in opensearch-provider.ts)
 * and those of `scout index … --to opensearch` (src/cli/index-opensearch.ts), which reach the
 * same cluster through connection.ts; a file of their own since both read them.
 */
export const openSearchSettings = {
  opensearchUrl: s(
    'SCOUT_OPENSEARCH_URL',
    urlList,
    '',
    'OpenSearch (or Elasticsearch 8) node URLs, comma-separated (e.g. http://os1:9200,http://os2:9200); calls rotate between them and fail over to the next when one is down. Required when opensearch is listed and for `scout index … --to opensearch` (docs/opensearch.md).',
  ),
  opensearchIndex: s(
    'SCOUT_OPENSEARCH_INDEX',
    indexName,
    'scout-pages',
    'The OpenSearch index (or alias) Scout searches and writes; Scout puts an index template of the same name for it.',
  ),
  opensearchUsername: s(
    'SCOUT_OPENSEARCH_USERNAME',
    str,
    '',
    'OpenSearch user for HTTP basic authentication (with SCOUT_OPENSEARCH_PASSWORD); unset: no authentication, or SCOUT_OPENSEARCH_API_KEY.',
  ),
  opensearchPassword: s('SCOUT_OPENSEARCH_PASSWORD', str, '', 'Password of SCOUT_OPENSEARCH_USERNAME.'),
  opensearchApiKey: s(
    'SCOUT_OPENSEARCH_API_KEY',
    str,
    '',
    'Elasticsearch API key (the base64 "id:key" credential), sent as Authorization: ApiKey; instead of a user name and password.',
  ),
  opensearchShards: s(
    'SCOUT_OPENSEARCH_SHARDS',
    optionalInt(1, 1024),
    '',
    "Primary shards of the index Scout creates (set in its index template); unset: the cluster's default (1). Fixed once the index exists.",
  ),
  opensearchReplicas: s(
    'SCOUT_OPENSEARCH_REPLICAS',
    optionalInt(0, 64),
    '',
    "Replica shards of the index Scout creates (set in its index template); unset: the cluster's default (1). 0 on a single node.",
  ),
  opensearchBulkDocs: s(
    'SCOUT_OPENSEARCH_BULK_DOCS',
    int(1, 10_000),
    '500',
    'Most documents in one _bulk request of `scout index … --to opensearch`.',
  ),
  opensearchBulkMb: s(
    'SCOUT_OPENSEARCH_BULK_MB',
    int(1, 100),
    '5',
    'Most MiB in one _bulk request of `scout index … --to opensearch` (a larger single document is sent alone).',
  ),
  opensearchBulkInFlight: s(
    'SCOUT_OPENSEARCH_BULK_IN_FLIGHT',
    int(1, 16),
    '2',
    '_bulk requests in flight at once from `scout index … --to opensearch`; reading the input waits while they are all busy.',
  ),
} as const;
