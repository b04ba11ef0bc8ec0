import { str, url } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import { normalizeDate } from '../domain/date-normalize.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import {
  asArray,
  asRecord,
  clamp,
  honoursOf,
  plainText,
  text,
  type HttpProviderOptions,
  resultList,
  withOptionalFields,
} from './adapter-kit.ts';
import { createJsonPostProvider } from './json-post-provider.ts';
import type { SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * Exa Search (POST /search, `x-api-key` header).
 * Native: numResults (max 100), includeDomains/excludeDomains, startPublishedDate and
 * endPublishedDate (ISO 8601), userLocation (two-letter country code). The snippet comes
 * from `highlights` (asked for), else `summary`, else the start of `text`.
 */

const NAME = 'exa';
const HONOURS = honoursOf('domains', 'dates', 'country');
const MAX_RESULTS = 100;
const SNIPPET_CHARS = 500;

export function exaBody(q: SearchQuery): Record<string, unknown> {
  const body: Record<string, unknown> = {
    query: q.query,
    type: 'auto',
    numResults: clamp(q.maxResults, 1, MAX_RESULTS),
    contents: { highlights: true },
  };
  // Exa documents include and exclude as alternatives: with both, include is sent and
  // Scout applies the excludes itself (it always checks domains).
  if (q.includeDomains.length) body.includeDomains = q.includeDomains;
  else if (q.excludeDomains.length) body.excludeDomains = q.excludeDomains;
  if (q.startDate) body.startPublishedDate = `${q.startDate}T00:00:00.000Z`;
  if (q.endDate) body.endPublishedDate = `${q.endDate}T23:59:59.999Z`;
  if (q.country) body.userLocation = q.country.toUpperCase();
  return body;
}

function snippet(r: Record<string, unknown>): string {
  const highlights = asArray(r.highlights)?.map(plainText).filter(Boolean);
  if (highlights?.length) return highlights.join(' … ');
  const summary = plainText(r.summary);
  if (summary) return summary;
  const full = plainText(r.text);
  return full.length > SNIPPET_CHARS ? `${full.slice(0, SNIPPET_CHARS)}…` : full;
}

function toResult(item: unknown, now: Date): ProviderResult | undefined {
  const r = asRecord(item);
  const url = text(r?.url);
  if (!r || !url) return undefined;
  const out: ProviderResult = { title: plainText(r.title), url, content: snippet(r) };
  return withOptionalFields(out, {
    publishedDate: normalizeDate(r.publishedDate, now),
    favicon: r.favicon,
    score: r.score,
  });
}

export function parseExaResponse(body: unknown, now: Date): ProviderResult[] {
  return resultList(NAME, asRecord(body)?.results, 'results', (x) => toResult(x, now));
}

export function createExaProvider(opts: HttpProviderOptions): SearchProvider {
  return createJsonPostProvider(
    {
      name: NAME,
      honours: HONOURS,
      maxResults: MAX_RESULTS,
      authHeaders: (apiKey) => ({ 'x-api-key': apiKey }),
      body: exaBody,
      parse: parseExaResponse,
    },
    opts,
  );
}

export const exaProvider = describeProvider({
  name: NAME,
  settings: {
    exaUrl: s('SCOUT_EXA_URL', url, 'https://api.exa.ai/search', 'Exa /search endpoint (full URL).'),
    exaApiKey: s('SCOUT_EXA_API_KEY', str, '', 'Exa API key; required when exa is listed.'),
  },
  requires: { setting: 'exaApiKey', as: '(an Exa API key)' },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) => createExaProvider({ ...deps, url: c.exaUrl, apiKey: c.exaApiKey.trim() }),
});
