import type { ValuesOf } from '../config/setting.ts';
import { braveProvider } from './brave.ts';
import { duckduckgoProvider } from './duckduckgo.ts';
import { exaProvider } from './exa.ts';
import { hackerNewsProvider } from './hackernews.ts';
import { marginaliaProvider } from './marginalia.ts';
import { mojeekProvider } from './mojeek.ts';
import { openSearchProvider } from './opensearch/opensearch-provider.ts';
import type { ListedProvider } from './provider-descriptor.ts';
import { searxngProvider } from './searxng.ts';
import { serperProvider } from './serper.ts';
import { stackExchangeProvider } from './stackexchange.ts';
import { tavilyProvider } from './tavily.ts';
import { wikipediaProvider } from './wikipedia.ts';

/**
 * Every provider SCOUT_SEARCH_PROVIDERS may list besides `local` (which the caller builds,
 * since it needs the store: create-providers.ts), one line each: the keyless ones first (the
 * default's engines, then the topical ones), then those that need a key or a host. The order is that of their
 * settings in `scout settings` and the README, and of the names in start-up errors.
 */
export const PROVIDER_LIST = [
  duckduckgoProvider,
  mojeekProvider,
  wikipediaProvider,
  marginaliaProvider,
  stackExchangeProvider,
  hackerNewsProvider,
  braveProvider,
  searxngProvider,
  tavilyProvider,
  exaProvider,
  serperProvider,
  openSearchProvider,
] as const;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The settings of every listed provider, in one table (keys unique: test/providers/provider-list.test.ts). */
export type ProviderListSettings = Intersection<(typeof PROVIDER_LIST)[number]['settings']>;
export const providerListSettings = Object.assign({}, ...PROVIDER_LIST.map((d) => d.settings)) as ProviderListSettings;

/** Their parsed values, as createProviders reads them. */
export type ProviderListConfig = ValuesOf<ProviderListSettings>;

/** The list as createProviders walks it: any descriptor, whatever its settings. */
export const providerList: readonly ListedProvider[] = PROVIDER_LIST;
