import { fetchAllowWarning } from './fetch-allow-cidrs.ts';
import type { Config } from './settings.ts';

/**
 * Accepted settings an operator should still see at start (one line each); the caller
 * prints them (src/cli/serve-command.ts), since config never writes output itself.
 */
export function configWarnings(config: Config): string[] {
  return [fetchAllowWarning(config)].filter((w): w is string => w !== undefined);
}
