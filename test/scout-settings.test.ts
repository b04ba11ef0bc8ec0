import { describe, expect, it } from 'vitest';
import { settings, settingsAfterProviders, settingsBeforeProviders } from '../src/config/settings.ts';
import { providerListSettings } from '../src/providers/provider-list.ts';
import { loadScoutConfig, scoutSettings } from '../src/scout-settings.ts';

describe("Scout's settings table", () => {
  it("is the config room's settings with each provider's between its two parts", () => {
    expect(Object.keys(scoutSettings)).toEqual([
      ...Object.keys(settingsBeforeProviders),
      ...Object.keys(providerListSettings),
      ...Object.keys(settingsAfterProviders),
    ]);
    expect(Object.keys(settings)).toEqual([
      ...Object.keys(settingsBeforeProviders),
      ...Object.keys(settingsAfterProviders),
    ]);
  });

  it("parses the providers' settings with the others, naming a bad one", () => {
    expect(loadScoutConfig({}).braveUrl).toBe('https://api.search.brave.com/res/v1/web/search');
    expect(loadScoutConfig({}).port).toBe(8080);
    expect(() => loadScoutConfig({ SCOUT_BRAVE_URL: 'api.search.brave.com' })).toThrow(
      /^SCOUT_BRAVE_URL must be an absolute http\(s\) URL/,
    );
  });
});
