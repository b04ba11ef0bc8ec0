import { anonymousWarning } from './anonymous-settings.ts';
import { fetchAllowWarning } from './fetch-allow-cidrs.ts';
import { searchesWeb } from './provider-settings.ts';
import type { Config } from './settings.ts';

/** SCOUT_SEARCH_PROVIDERS without a web provider: every search answers from the operator's own index only. */
function noWebWarning(config: Pick<Config, 'searchProviders'>): string | undefined {
  if (searchesWeb(config.searchProviders)) return undefined;
  return `SCOUT_SEARCH_PROVIDERS=${config.searchProviders.join(',')} has no web search provider: searches find only what was indexed on this server, not the web (unset it for the keyless web engines, or list providers: docs/providers.md)`;
}

/**
 * Accepted settings an operator should still see at start (one line each); the caller
 * prints them (src/cli/serve-command.ts), since config never writes output itself.
 */
export function configWarnings(config: Config): string[] {
  return [fetchAllowWarning(config), noWebWarning(config), anonymousWarning(config)].filter(
    (w): w is string => w !== undefined,
  );
}
