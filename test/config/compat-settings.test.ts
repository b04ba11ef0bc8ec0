import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';

describe('compat settings', () => {
  it('default to sponsored entries in every shape and no path keys', () => {
    const c = loadConfig({});
    expect(c.compatSponsored).toEqual(['searxng', 'tavily', 'firecrawl']);
    expect(c.pathKeys).toBe(false);
  });

  it('take a list of shapes in any case and order, or none', () => {
    expect(loadConfig({ SCOUT_COMPAT_SPONSORED: ' Tavily, firecrawl,tavily ' }).compatSponsored).toEqual([
      'tavily',
      'firecrawl',
    ]);
    expect(loadConfig({ SCOUT_COMPAT_SPONSORED: 'none' }).compatSponsored).toEqual([]);
    expect(loadConfig({ SCOUT_PATH_KEYS: 'true' }).pathKeys).toBe(true);
  });

  it.each([
    ['SCOUT_COMPAT_SPONSORED', 'searxng,bing', /searxng, tavily, firecrawl, or be none; got "bing"/],
    ['SCOUT_COMPAT_SPONSORED', 'none,searxng', /got "none"/],
    ['SCOUT_PATH_KEYS', 'maybe', /must be true or false/],
  ])('%s=%s stops the start with a message naming it', (name, value, why) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} `));
    expect(() => loadConfig({ [name]: value })).toThrow(why);
  });
});
