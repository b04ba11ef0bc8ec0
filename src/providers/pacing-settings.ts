import { decimal, int } from '../config/parsers.ts';
import { s, type Setting } from '../config/setting.ts';
import type { Pacing } from './provider.ts';

/**
 * The two pacing settings of one engine, `SCOUT_<ENGINE>_RATE` (searches per second) and
 * `SCOUT_<ENGINE>_IN_FLIGHT` (at once), keyed `<key>Rate` and `<key>InFlight`, with the
 * engine's polite defaults. Spread into a descriptor's settings; `pacingOf` reads them back.
 */
export type PacingSettings<K extends string> = Record<`${K}Rate`, Setting<number>> &
  Record<`${K}InFlight`, Setting<number>>;

export function pacingSettings<K extends string>(key: K, engine: string, defaults: Pacing): PacingSettings<K> {
  const env = `SCOUT_${engine.toUpperCase()}`;
  return {
    [`${key}Rate`]: s(
      `${env}_RATE`,
      decimal(0.01, 100),
      String(defaults.perSecond),
      `Searches per second this process sends ${engine} at most; more wait their turn (pacing, docs/providers.md).`,
    ),
    [`${key}InFlight`]: s(
      `${env}_IN_FLIGHT`,
      int(1, 64),
      String(defaults.inFlight),
      `Searches this process has open at ${engine} at once; more wait their turn.`,
    ),
  } as PacingSettings<K>;
}

/** The pacing the settings made by pacingSettings(key, …) hold. */
export function pacingOf<K extends string>(
  config: Readonly<Record<`${K}Rate` | `${K}InFlight`, number>>,
  key: K,
): Pacing {
  return { perSecond: config[`${key}Rate`], inFlight: config[`${key}InFlight`] };
}
