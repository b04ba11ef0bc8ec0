import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/load-config.ts';
import { loadScoutConfig } from '../../src/scout-settings.ts';
import { createProviders } from '../../src/providers/create-providers.ts';
import { openSearchConnection } from '../../src/providers/opensearch/connection.ts';
import { NodePool } from '../../src/providers/opensearch/node-pool.ts';

const build = (env: Record<string, string>) => createProviders(loadScoutConfig(env), {});

describe('opensearch settings', () => {
  it('builds the provider when listed with its node URLs, in failover order with the others', () => {
    const providers = build({
      SCOUT_SEARCH_PROVIDERS: 'opensearch,searxng',
      SCOUT_OPENSEARCH_URL: 'http://os1:9200, https://os2:9200/',
      SCOUT_SEARXNG_URL: 'http://127.0.0.1:8888/search',
    });
    expect(providers.map((p) => p.name)).toEqual(['opensearch', 'searxng']);
  });

  it('has defaults, and reads a node list', () => {
    const c = loadScoutConfig({});
    expect([c.opensearchUrl, c.opensearchIndex, c.opensearchShards, c.opensearchReplicas]).toEqual([
      [],
      'scout-pages',
      undefined,
      undefined,
    ]);
    expect([c.opensearchBulkDocs, c.opensearchBulkMb, c.opensearchBulkInFlight]).toEqual([500, 5, 2]);
    const set = loadScoutConfig({
      SCOUT_OPENSEARCH_URL: 'http://os1:9200,http://os2:9200/,https://search.example.com/opensearch/',
      SCOUT_OPENSEARCH_REPLICAS: '0',
    });
    expect(set.opensearchUrl).toEqual(['http://os1:9200', 'http://os2:9200', 'https://search.example.com/opensearch']);
    expect(set.opensearchReplicas).toBe(0);
  });

  it.each([
    [
      { SCOUT_SEARCH_PROVIDERS: 'opensearch' },
      "SCOUT_SEARCH_PROVIDERS lists opensearch, so SCOUT_OPENSEARCH_URL must be set to the cluster's node URLs (e.g. http://localhost:9200)",
    ],
    [
      {
        SCOUT_SEARCH_PROVIDERS: 'opensearch',
        SCOUT_OPENSEARCH_URL: 'http://os:9200',
        SCOUT_OPENSEARCH_USERNAME: 'scout',
      },
      'SCOUT_OPENSEARCH_USERNAME is set without SCOUT_OPENSEARCH_PASSWORD',
    ],
    [
      { SCOUT_SEARCH_PROVIDERS: 'opensearch', SCOUT_OPENSEARCH_URL: 'http://os:9200', SCOUT_OPENSEARCH_PASSWORD: 'pw' },
      'SCOUT_OPENSEARCH_PASSWORD is set without SCOUT_OPENSEARCH_USERNAME',
    ],
    [
      {
        SCOUT_SEARCH_PROVIDERS: 'opensearch',
        SCOUT_OPENSEARCH_URL: 'http://os:9200',
        SCOUT_OPENSEARCH_USERNAME: 'u',
        SCOUT_OPENSEARCH_PASSWORD: 'p',
        SCOUT_OPENSEARCH_API_KEY: 'k',
      },
      'set either SCOUT_OPENSEARCH_USERNAME and SCOUT_OPENSEARCH_PASSWORD, or SCOUT_OPENSEARCH_API_KEY, not both',
    ],
  ])('refuses to start: %j', (env, message) => {
    expect(() => build(env)).toThrow(ConfigError);
    expect(() => build(env)).toThrow(message);
  });

  it.each([
    ['SCOUT_OPENSEARCH_URL', 'os1:9200', 'SCOUT_OPENSEARCH_URL must be an http(s) URL, got "os1:9200"'],
    [
      'SCOUT_OPENSEARCH_URL',
      'http://os1:9200,not a url',
      'SCOUT_OPENSEARCH_URL must be an absolute http(s) URL, got "not a url"',
    ],
    [
      'SCOUT_OPENSEARCH_URL',
      'http://admin:secret@os1:9200',
      'SCOUT_OPENSEARCH_URL must not carry credentials in the URL',
    ],
    [
      'SCOUT_OPENSEARCH_URL',
      'http://os1:9200/?pretty',
      'SCOUT_OPENSEARCH_URL must be base URLs without a query or fragment',
    ],
    ['SCOUT_OPENSEARCH_INDEX', 'Scout Pages', /^SCOUT_OPENSEARCH_INDEX must be an index name of lower case letters/],
    ['SCOUT_OPENSEARCH_INDEX', '_hidden', /^SCOUT_OPENSEARCH_INDEX must be an index name/],
    ['SCOUT_OPENSEARCH_REPLICAS', '-1', /^SCOUT_OPENSEARCH_REPLICAS must be an integer from 0 to 64/],
    ['SCOUT_OPENSEARCH_BULK_IN_FLIGHT', '0', /^SCOUT_OPENSEARCH_BULK_IN_FLIGHT must be an integer from 1 to 16/],
  ])('%s=%s is refused with the variable named', (name, value, message) => {
    expect(() => loadScoutConfig({ [name]: value })).toThrow(message);
  });

  it('never repeats a password in its messages, and keeps credentials as secrets to redact', () => {
    try {
      loadScoutConfig({ SCOUT_OPENSEARCH_URL: 'http://admin:hunter2-secret@os1:9200' });
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2-secret');
    }
    const conn = openSearchConnection(
      loadScoutConfig({
        SCOUT_OPENSEARCH_URL: 'http://os:9200',
        SCOUT_OPENSEARCH_USERNAME: 'scout',
        SCOUT_OPENSEARCH_PASSWORD: 'hunter2-secret',
      }),
      'test',
    );
    const basic = Buffer.from('scout:hunter2-secret').toString('base64');
    expect(conn.headers).toEqual({ authorization: `Basic ${basic}` });
    expect(conn.secrets).toEqual(['hunter2-secret', basic]);
  });
});

describe('node pool', () => {
  it('rotates, and tries nodes that failed lately last until their cool-down ends', () => {
    let now = 0;
    const pool = new NodePool(['a', 'b', 'c'], { downMs: 1000, now: () => now });
    expect([pool.order(), pool.order(), pool.order(), pool.order()]).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'a'],
      ['c', 'a', 'b'],
      ['a', 'b', 'c'],
    ]);
    pool.down('b');
    expect(pool.order()).toEqual(['c', 'a', 'b']);
    expect(pool.order()).toEqual(['c', 'a', 'b']);
    now = 1000;
    expect(pool.order()).toEqual(['a', 'b', 'c']);
    pool.down('a');
    pool.down('b');
    pool.down('c');
    // All down: still every node, in turn.
    expect(pool.order()).toEqual(['b', 'c', 'a']);
    pool.up('a');
    // c's turn, but only a is back: a first, then the others in turn.
    expect(pool.order()).toEqual(['a', 'c', 'b']);
  });
});
