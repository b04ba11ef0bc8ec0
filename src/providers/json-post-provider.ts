import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import { clamp, type HttpProviderOptions } from './adapter-kit.ts';
import { requestJson, type StatusHint } from './http-json.ts';
import type { ProviderFilter, SearchProvider } from './provider.ts';

/** What differs between the providers that take a JSON POST with the key in a header (Tavily, Exa, Serper). */
export interface JsonPostAdapter {
  name: string;
  honours: ReadonlySet<ProviderFilter>;
  /** The provider's own ceiling on results per call. */
  maxResults: number;
  authHeaders(apiKey: string): Record<string, string>;
  body(query: SearchQuery): unknown;
  parse(body: unknown, now: Date): ProviderResult[];
  statusHints?: Readonly<Record<number, StatusHint>>;
}

export function createJsonPostProvider(adapter: JsonPostAdapter, opts: HttpProviderOptions): SearchProvider {
  const now = opts.now ?? (() => new Date());
  return {
    name: adapter.name,
    honours: adapter.honours,
    async search(query, signal) {
      const body = await requestJson({
        provider: adapter.name,
        url: opts.url,
        method: 'POST',
        headers: adapter.authHeaders(opts.apiKey),
        body: adapter.body(query),
        signal,
        dispatcher: opts.dispatcher,
        userAgent: opts.userAgent,
        secrets: [opts.apiKey],
        ...(adapter.statusHints ? { statusHints: adapter.statusHints } : {}),
      });
      return adapter.parse(body, now()).slice(0, clamp(query.maxResults, 1, adapter.maxResults));
    },
  };
}
