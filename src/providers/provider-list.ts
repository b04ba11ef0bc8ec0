import type { ValuesOf } from '../config/setting.ts';
import { braveProvider } from './brave.ts';
import { exaProvider } from './exa.ts';
import { marginaliaProvider } from './marginalia.ts';
import { openSearchProvider } from './opensearch/opensearch-provider.ts';
import type { ListedProvider } from './provider-descriptor.ts';
import { searxngProvider } from './searxng.ts';
import { serperProvider } from './serper.ts';
import { tavilyProvider } from './tavily.ts';

/**
 * Every provider SCOUT_SEARCH_PROVIDERS may list besides `local` (which the caller builds,
 * since it needs the store: create-providers.ts), one line each. The order is that of their
 * settings in `scout settings` and the README, and of the names in start-up errors.
 */
export const PROVIDER_LIST = [
  braveProvider,
  searxngProvider,
  tavilyProvider,
  exaProvider,
  serperProvider,
  marginaliaProvider,
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
