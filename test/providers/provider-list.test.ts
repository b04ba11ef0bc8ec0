import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';
import { str } from '../../src/config/parsers.ts';
import { s } from '../../src/config/setting.ts';
import { honoursOf } from '../../src/providers/adapter-kit.ts';
import { createProviders, PROVIDER_NAMES, type ProvidersConfig } from '../../src/providers/create-providers.ts';
import { describeProvider, type ListedProvider } from '../../src/providers/provider-descriptor.ts';
import { providerList, providerListSettings } from '../../src/providers/provider-list.ts';
import { loadScoutConfig, scoutSettings } from '../../src/scout-settings.ts';
import { REQUIRED_PROVIDER_ENV } from './required-provider-env.ts';
import { defined } from '../helpers/defined.ts';

const requiredEnv = (d: ListedProvider): string | undefined =>
  d.requires ? d.settings[d.requires.setting]?.env : undefined;

describe('the provider list', () => {
  it.each(providerList.map((d) => [d.name, d]))(
    '%s is reachable by its name in SCOUT_SEARCH_PROVIDERS, with what it declares',
    (name, descriptor) => {
      const env: Record<string, string> = { SCOUT_SEARCH_PROVIDERS: name };
      const required = requiredEnv(descriptor);
      if (required !== undefined) {
        expect(REQUIRED_PROVIDER_ENV, `a test value for ${required}`).toHaveProperty(required);
        env[required] = defined(REQUIRED_PROVIDER_ENV[required], `a test value for ${required}`);
      }
      const [provider] = createProviders(loadScoutConfig(env));
      expect(provider!.name).toBe(name);
      expect(provider!.honours).toEqual(descriptor.honours);
      expect(PROVIDER_NAMES).toContain(name);
    },
  );

  it.each(providerList.filter((d) => d.requires).map((d) => [d.name, d]))(
    '%s without what it requires stops the start naming the variable',
    (name, descriptor) => {
      const run = () => createProviders(loadScoutConfig({ SCOUT_SEARCH_PROVIDERS: name }));
      expect(run).toThrow(ConfigError);
      expect(run).toThrow(
        `SCOUT_SEARCH_PROVIDERS lists ${name}, so ${requiredEnv(descriptor)} must be set ${descriptor.requires!.as}`,
      );
    },
  );

  it('has each name once, lower case, and not local (the caller builds that one)', () => {
    const names = providerList.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toBe(n.toLowerCase());
    expect(names).not.toContain('local');
  });

  it("puts every provider's settings in Scout's settings table, under keys and names used once", () => {
    for (const d of providerList) {
      for (const [key, setting] of Object.entries(d.settings))
        expect(scoutSettings, `${d.name}: ${key}`).toHaveProperty(key, setting);
    }
    const keys = providerList.flatMap((d) => Object.keys(d.settings));
    expect(new Set(keys).size).toBe(keys.length);
    expect(Object.keys(providerListSettings)).toEqual(keys);
    const envs = Object.values(scoutSettings).map((setting) => setting.env);
    expect(new Set(envs).size).toBe(envs.length);
  });
});

describe('a provider added by its descriptor alone', () => {
  const fake = describeProvider({
    name: 'fake',
    settings: { fakeApiKey: s('SCOUT_FAKE_API_KEY', str, '', 'Fake API key; required when fake is listed.') },
    requires: { setting: 'fakeApiKey', as: '(a fake key)' },
    honours: honoursOf('country'),
    maxResults: 10,
    build: (c) => ({
      name: 'fake',
      honours: honoursOf('country'),
      search: async () => [{ title: c.fakeApiKey, url: 'https://fake.example/', content: '' }],
    }),
  });
  const list: readonly ListedProvider[] = [...providerList, fake];
  const load = (env: Record<string, string>) =>
    loadConfig(env, { ...scoutSettings, ...fake.settings }) as unknown as ProvidersConfig;

  it('is parsed, checked and built through the list', async () => {
    const [provider] = createProviders(load({ SCOUT_SEARCH_PROVIDERS: 'fake', SCOUT_FAKE_API_KEY: 'k' }), {}, {}, list);
    expect(provider!.name).toBe('fake');
    expect(await provider!.search({} as never, new AbortController().signal)).toMatchObject([{ title: 'k' }]);
    expect(() => createProviders(load({ SCOUT_SEARCH_PROVIDERS: 'fake' }), {}, {}, list)).toThrow(
      'SCOUT_SEARCH_PROVIDERS lists fake, so SCOUT_FAKE_API_KEY must be set (a fake key)',
    );
  });

  it('is unknown to a list without it', () => {
    expect(() => createProviders(load({ SCOUT_SEARCH_PROVIDERS: 'fake' }))).toThrow(
      `lists unknown provider "fake"; known providers: ${PROVIDER_NAMES.join(', ')}`,
    );
    expect(() => createProviders(load({ SCOUT_SEARCH_PROVIDERS: 'bing' }), {}, {}, list)).toThrow(
      /known providers: local, .*, fake$/,
    );
  });
});
