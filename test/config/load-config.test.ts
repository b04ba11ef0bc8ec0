import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';
import { scoutSettings } from '../../src/scout-settings.ts';

describe('loadConfig', () => {
  it('has defaults for the embedded mode', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      dataDir: './data',
      rateLimitRpm: 60,
      monthlySearchBudget: 10000,
      starterCorpus: true,
    });
    expect(c.searchProviders).toEqual(['duckduckgo', 'mojeek', 'wikipedia', 'local']);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it.each([
    ['PORT', 'eighty', /^PORT must be an integer/],
    ['SCOUT_RATE_LIMIT_RPM', '0', /^SCOUT_RATE_LIMIT_RPM must be an integer from 1/],
    ['SCOUT_STARTER_CORPUS', 'maybe', /^SCOUT_STARTER_CORPUS must be true or false/],
    ['SCOUT_FETCH_ALLOW_CIDRS', '10.0.0.0/8,nope', /^SCOUT_FETCH_ALLOW_CIDRS must be a comma-separated list of CIDRs/],
    ['SCOUT_LOG_LEVEL', 'loud', /^SCOUT_LOG_LEVEL must be one of/],
  ])('%s=%s stops the start with a one-line message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('refuses a retired setting rather than ignore it, naming what replaced it', () => {
    expect(() => loadConfig({ SCOUT_INDEX_MEMORY_MAX_DOCS: '50000' })).toThrow(ConfigError);
    expect(() => loadConfig({ SCOUT_INDEX_MEMORY_MAX_DOCS: '50000' })).toThrow(
      /^SCOUT_INDEX_MEMORY_MAX_DOCS is no longer read: .*SCOUT_INDEX_MEMORY_MB/,
    );
    expect(loadConfig({ SCOUT_INDEX_MEMORY_MB: '64' }).indexMemoryMb).toBe(64);
  });

  it('every setting is documented in the README table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const s of Object.values(scoutSettings)) expect(readme, s.env).toContain(`\`${s.env}\``);
  });
});
