import { fetchAllowRefusal } from './fetch-allow-cidrs.ts';
import type { SettingTable, ValuesOf } from './setting.ts';
import { settings, type Config, type Settings } from './settings.ts';
import { storageRefusal } from './storage-settings.ts';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Settings an older Scout read, with what replaced them: set, they stop the start rather than be ignored. */
const RETIRED: Record<string, string> = {
  SCOUT_INDEX_MEMORY_MAX_DOCS:
    'the in-memory ranker now has a memory budget instead of a document limit; set SCOUT_INDEX_MEMORY_MB (MiB; past it postings spill to disk; 0 turns the ranker off)',
};

/**
 * Parses every setting of `table` once: by default the config room's own; Scout's whole
 * table, with each provider's settings, is src/scout-settings.ts's (loadScoutConfig). The
 * only place in Scout that reads process.env: everything else receives the frozen Config.
 * A bad value throws a one-line message naming the variable.
 * Warnings about accepted values: configWarnings (config-warnings.ts).
 */
export function loadConfig<T extends Settings & SettingTable = Settings>(
  env: Record<string, string | undefined> = process.env,
  table: T = settings as T,
): ValuesOf<T> {
  for (const [old, now] of Object.entries(RETIRED)) {
    if (env[old] !== undefined && env[old] !== '') throw new ConfigError(`${old} is no longer read: ${now}`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(table)) {
    const raw = env[setting.env];
    const value = raw === undefined || raw === '' ? setting.default : raw;
    try {
      out[key] = (setting.parse as (r: string) => unknown)(value);
    } catch (e) {
      throw new ConfigError(`${setting.env} ${(e as Error).message}`);
    }
  }
  // Checks that need two settings at once, after each has been parsed on its own.
  for (const refusal of [fetchAllowRefusal(out as Config), storageRefusal(out as Config)]) {
    if (refusal !== undefined) throw new ConfigError(refusal);
  }
  return Object.freeze(out) as ValuesOf<T>;
}
