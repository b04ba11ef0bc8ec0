import { loadConfig } from './config/load-config.ts';
import type { ValuesOf } from './config/setting.ts';
import { settingsAfterProviders, settingsBeforeProviders } from './config/settings.ts';
import { providerListSettings } from './providers/provider-list.ts';

/**
 * Every setting Scout reads, in one table: the config room's and each search provider's
 * (declared in its descriptor, src/providers/provider-list.ts). Joined here, above both
 * rooms, since providers read config and config must not read providers. `scout settings`
 * prints it in this order and the README's settings table documents every name.
 */
export const scoutSettings = { ...settingsBeforeProviders, ...providerListSettings, ...settingsAfterProviders };

export type ScoutSettings = typeof scoutSettings;
export type ScoutConfig = ValuesOf<ScoutSettings>;

/** Parses every setting of Scout once (loadConfig over the whole table); env: the process's own environment when not given. */
export const loadScoutConfig = (env?: Record<string, string | undefined>): ScoutConfig =>
  loadConfig(env, scoutSettings);
