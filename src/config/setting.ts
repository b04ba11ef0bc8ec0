import type { Parser } from './parsers.ts';

export interface Setting<T> {
  env: string;
  parse: Parser<T>;
  /** Raw default, parsed like a user value; '' means "unset". */
  default: string;
  description: string;
}

export const s = <T>(env: string, parse: Parser<T>, def: string, description: string): Setting<T> => ({
  env,
  parse,
  default: def,
  description,
});

/**
 * A table of settings by the key their value gets in the parsed config. The config room's
 * own table (settings.ts) is one; each search provider declares another beside its code
 * (src/providers/provider-descriptor.ts), and src/scout-settings.ts joins them.
 */
export type SettingTable = Readonly<Record<string, Setting<unknown>>>;

/** The parsed values of a table, under the same keys. */
export type ValuesOf<T extends SettingTable> = { readonly [K in keyof T]: ReturnType<T[K]['parse']> };
