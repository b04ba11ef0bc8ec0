import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/load-config.ts';
import { loadScoutConfig } from '../../src/scout-settings.ts';
import { createProviders, PROVIDER_NAMES, searchBackendOptions } from '../../src/providers/create-providers.ts';
import type { SearchProvider } from '../../src/providers/provider.ts';
import { REQUIRED_PROVIDER_ENV } from './required-provider-env.ts';

const local: SearchProvider = {
  name: 'local',
  honours: new Set(['domains', 'dates', 'country']),
  search: async () => [],
};

const build = (env: Record<string, string>) => createProviders(loadScoutConfig(env), { local });

describe('createProviders', () => {
  it('builds the listed providers in order', () => {
    const providers = build({
      ...REQUIRED_PROVIDER_ENV,
      SCOUT_SEARCH_PROVIDERS: 'brave, searxng,Tavily,exa,serper,marginalia,local',
    });
    expect(providers.map((p) => p.name)).toEqual([
      'brave',
      'searxng',
      'tavily',
      'exa',
      'serper',
      'marginalia',
      'local',
    ]);
    expect(providers[6]).toBe(local);
  });

  it('builds marginalia without a key (the shared `public` key is the default)', () => {
    const [marginalia] = build({ SCOUT_SEARCH_PROVIDERS: 'marginalia' });
    expect(marginalia?.name).toBe('marginalia');
    expect(marginalia?.pacing).toEqual({ perSecond: 1, inFlight: 1 });
  });

  it('defaults to the keyless web engines and Wikipedia fused with the local index', () => {
    const providers = build({});
    expect(providers.map((p) => p.name)).toEqual(['duckduckgo', 'mojeek', 'wikipedia', 'local']);
    // The web engines are paced; the local index is not.
    expect(providers.map((p) => p.pacing !== undefined)).toEqual([true, true, true, false]);
    expect(searchBackendOptions(loadScoutConfig({})).mode).toBe('fusion');
  });

  it('auto mode: fusion for the default list only, failover for a list the operator wrote', () => {
    const mode = (env: Record<string, string>) => searchBackendOptions(loadScoutConfig(env)).mode;
    expect(mode({ SCOUT_SEARCH_PROVIDERS: 'duckduckgo, Mojeek,wikipedia,local' })).toBe('fusion');
    expect(mode({ SCOUT_SEARCH_PROVIDERS: 'duckduckgo,mojeek,wikipedia' })).toBe('failover');
    expect(mode({ SCOUT_SEARCH_PROVIDERS: 'local' })).toBe('failover');
    expect(mode({ SCOUT_SEARCH_PROVIDERS: 'local', SCOUT_SEARCH_MODE: 'fusion' })).toBe('fusion');
    expect(mode({ SCOUT_SEARCH_MODE: 'failover' })).toBe('failover');
  });

  it.each([
    [
      { SCOUT_SEARCH_PROVIDERS: 'brave' },
      'SCOUT_SEARCH_PROVIDERS lists brave, so SCOUT_BRAVE_API_KEY must be set (a Brave Search API subscription token)',
    ],
    [
      { SCOUT_SEARCH_PROVIDERS: 'local,tavily', SCOUT_TAVILY_API_KEY: '   ' },
      'SCOUT_SEARCH_PROVIDERS lists tavily, so SCOUT_TAVILY_API_KEY must be set (a Tavily API key (tvly-…))',
    ],
    [
      { SCOUT_SEARCH_PROVIDERS: 'exa' },
      'SCOUT_SEARCH_PROVIDERS lists exa, so SCOUT_EXA_API_KEY must be set (an Exa API key)',
    ],
    [
      { SCOUT_SEARCH_PROVIDERS: 'serper' },
      'SCOUT_SEARCH_PROVIDERS lists serper, so SCOUT_SERPER_API_KEY must be set (a Serper API key)',
    ],
    [
      { SCOUT_SEARCH_PROVIDERS: 'searxng' },
      "SCOUT_SEARCH_PROVIDERS lists searxng, so SCOUT_SEARXNG_URL must be set to the instance's /search URL",
    ],
    [
      { SCOUT_SEARCH_PROVIDERS: 'bing' },
      `SCOUT_SEARCH_PROVIDERS lists unknown provider "bing"; known providers: ${PROVIDER_NAMES.join(', ')}`,
    ],
    [{ SCOUT_SEARCH_PROVIDERS: 'local,local' }, 'SCOUT_SEARCH_PROVIDERS lists local twice; list each provider once'],
    [{ SCOUT_SEARCH_PROVIDERS: ' , ' }, /SCOUT_SEARCH_PROVIDERS must list at least one provider/],
  ])('refuses to start: %j', (env, message) => {
    const run = () => build(env);
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
  });

  it('needs the local index from the caller when local is listed', () => {
    expect(() => createProviders(loadScoutConfig({}), {})).toThrow(
      'SCOUT_SEARCH_PROVIDERS lists local, but the local index is not available in this process',
    );
  });

  it('never puts a key in its messages', () => {
    try {
      build({ SCOUT_SEARCH_PROVIDERS: 'brave,exa', SCOUT_BRAVE_API_KEY: 'very-secret-brave-key' });
    } catch (e) {
      expect((e as Error).message).not.toContain('very-secret-brave-key');
      return;
    }
    throw new Error('expected a ConfigError');
  });
});

describe('provider settings', () => {
  it('have defaults and reach the backend options', () => {
    const c = loadScoutConfig({});
    expect(c.braveUrl).toBe('https://api.search.brave.com/res/v1/web/search');
    expect(c.searxngUrl).toBeUndefined();
    expect(searchBackendOptions(c)).toEqual({
      mode: 'fusion',
      providerTimeoutMs: 6000,
      deadlineMs: 15000,
      cacheTtlMs: 300_000,
      cacheMax: 1000,
      breaker: { threshold: 3, cooldownMs: 30_000 },
      blockCooldownMs: 600_000,
    });
    expect(c.contact).toBe('');
  });

  it('are validated with the variable named', () => {
    expect(() => loadScoutConfig({ SCOUT_SEARCH_MODE: 'roundrobin' })).toThrow(
      'SCOUT_SEARCH_MODE must be one of auto, failover, fusion, got "roundrobin"',
    );
    expect(() => loadScoutConfig({ SCOUT_PROVIDER_TIMEOUT_MS: '6s' })).toThrow(
      /^SCOUT_PROVIDER_TIMEOUT_MS must be an integer/,
    );
    expect(() => loadScoutConfig({ SCOUT_BRAVE_URL: 'api.search.brave.com' })).toThrow(
      /^SCOUT_BRAVE_URL must be an absolute http\(s\) URL/,
    );
    expect(loadScoutConfig({ SCOUT_SEARCH_MODE: 'Fusion', SCOUT_SEARCH_CACHE_TTL: '0' })).toMatchObject({
      searchMode: 'fusion',
      searchCacheTtl: 0,
    });
  });
});
