import { ConfigError } from '../../config/load-config.ts';
import type { ValuesOf } from '../../config/setting.ts';
import { openSearchSettings as settings } from './opensearch-settings.ts';

/**
 * Where and how Scout reaches an OpenSearch (or Elasticsearch 8) cluster, from the settings
 * (docs/opensearch.md). Shared by the search provider and `scout index … --to opensearch`,
 * so both check the settings the same way and send the same credentials.
 */
export interface OpenSearchConnection {
  /** Node base URLs (no trailing slash), in the configured order. */
  nodes: string[];
  /** Index or alias searched and written. */
  index: string;
  /** The Authorization header, when the cluster wants one. */
  headers: Record<string, string>;
  /** Values removed from any upstream text that reaches the logs. */
  secrets: string[];
  /** Shard and replica counts of the index template; undefined: the cluster's defaults. */
  shards?: number;
  replicas?: number;
}

/** Why the cluster settings are unusable, naming what to set; `use` says what needed them. */
export function openSearchConnection(config: ValuesOf<typeof settings>, use: string): OpenSearchConnection {
  if (config.opensearchUrl.length === 0) {
    throw new ConfigError(
      `${use}, so ${settings.opensearchUrl.env} must be set to the cluster's node URLs (e.g. http://localhost:9200)`,
    );
  }
  const user = config.opensearchUsername.trim();
  const password = config.opensearchPassword;
  const apiKey = config.opensearchApiKey.trim();
  if (password !== '' && user === '')
    throw new ConfigError(`${settings.opensearchPassword.env} is set without ${settings.opensearchUsername.env}`);
  if (user !== '' && password === '')
    throw new ConfigError(`${settings.opensearchUsername.env} is set without ${settings.opensearchPassword.env}`);
  if (user !== '' && apiKey !== '') {
    throw new ConfigError(
      `set either ${settings.opensearchUsername.env} and ${settings.opensearchPassword.env}, or ${settings.opensearchApiKey.env}, not both`,
    );
  }
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  if (user !== '') {
    const basic = Buffer.from(`${user}:${password}`).toString('base64');
    headers.authorization = `Basic ${basic}`;
    secrets.push(password, basic);
  } else if (apiKey !== '') {
    // Elasticsearch's API keys; OpenSearch's security plugin authenticates users instead.
    headers.authorization = `ApiKey ${apiKey}`;
    secrets.push(apiKey);
  }
  return {
    nodes: config.opensearchUrl,
    index: config.opensearchIndex,
    headers,
    secrets,
    ...(config.opensearchShards !== undefined ? { shards: config.opensearchShards } : {}),
    ...(config.opensearchReplicas !== undefined ? { replicas: config.opensearchReplicas } : {}),
  };
}
