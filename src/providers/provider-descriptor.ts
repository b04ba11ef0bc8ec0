import type { SettingTable, ValuesOf } from '../config/setting.ts';
import type { ProviderDeps } from './adapter-kit.ts';
import type { ProviderFilter, SearchProvider } from './provider.ts';

/**
 * Everything Scout needs to know about one upstream search provider, declared in the
 * provider's own file beside its adapter, so a provider is added by one file and one line in
 * provider-list.ts. Its settings join the config room's in src/scout-settings.ts: parsed at
 * start with the others, printed by `scout settings`, documented in the README's table.
 */
export interface ProviderDescriptor<S extends SettingTable = SettingTable> {
  /** Its name in SCOUT_SEARCH_PROVIDERS (lower case), as the built provider reports it. */
  readonly name: string;
  /** The settings it reads, under keys unique across Scout's whole settings table. */
  readonly settings: S;
  /**
   * The setting that must be set (a non-blank string, a non-empty list) when the provider is
   * listed, and how the start-up error ends after "SCOUT_SEARCH_PROVIDERS lists NAME, so
   * ENV must be set ": e.g. "(an Exa API key)".
   */
  readonly requires?: { readonly setting: keyof S & string; readonly as: string };
  /** The SearchQuery filters its upstream applies natively (the built provider's `honours`). */
  readonly honours: ReadonlySet<ProviderFilter>;
  /** The most results one upstream call may ask for; absent: the upstream takes no count. */
  readonly maxResults?: number;
  /** The provider from its parsed settings (the required one already checked). */
  build(config: ValuesOf<S>, deps: ProviderDeps): SearchProvider;
}

/** Declares a descriptor with its settings' keys and types kept for `build` and `requires`. */
export const describeProvider = <S extends SettingTable>(descriptor: ProviderDescriptor<S>): ProviderDescriptor<S> =>
  descriptor;

/**
 * A descriptor as a list of different providers holds it, its settings' keys forgotten (a
 * typed descriptor is one; the typed form cannot be widened, since `requires` names a key).
 */
export interface ListedProvider {
  readonly name: string;
  readonly settings: SettingTable;
  readonly requires?: { readonly setting: string; readonly as: string };
  readonly honours: ReadonlySet<ProviderFilter>;
  readonly maxResults?: number;
  build(config: Readonly<Record<string, unknown>>, deps: ProviderDeps): SearchProvider;
}
