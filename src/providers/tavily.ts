import { str, url } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import { normalizeDate } from '../domain/date-normalize.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import {
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
 * Tavily Search (POST /search, `Authorization: Bearer tvly-…`).
 * Native: max_results (max 20), search_depth, include/exclude_domains, time_range or
 * start_date/end_date, country (Tavily wants an English country name, not a code: only the
 * names below are sent, others are left out rather than risk a 400).
 * Quirk: `published_date` is only given for topic=news; general results are mostly undated.
 */

const NAME = 'tavily';
const HONOURS = honoursOf('domains', 'dates', 'country');
const MAX_RESULTS = 20;

/** ISO 3166-1 alpha-2 → Tavily's country name, for the names Tavily is known to accept. */
const COUNTRY_NAMES: Record<string, string> = {
  AE: 'united arab emirates',
  AR: 'argentina',
  AT: 'austria',
  AU: 'australia',
  BD: 'bangladesh',
  BE: 'belgium',
  BR: 'brazil',
  CA: 'canada',
  CH: 'switzerland',
  CL: 'chile',
  CN: 'china',
  CO: 'colombia',
  CZ: 'czech republic',
  DE: 'germany',
  DK: 'denmark',
  EG: 'egypt',
  ES: 'spain',
  FI: 'finland',
  FR: 'france',
  GB: 'united kingdom',
  GR: 'greece',
  HU: 'hungary',
  ID: 'indonesia',
  IE: 'ireland',
  IL: 'israel',
  IN: 'india',
  IT: 'italy',
  JP: 'japan',
  KE: 'kenya',
  KR: 'south korea',
  MX: 'mexico',
  MY: 'malaysia',
  NG: 'nigeria',
  NL: 'netherlands',
  NO: 'norway',
  NZ: 'new zealand',
  PH: 'philippines',
  PK: 'pakistan',
  PL: 'poland',
  PT: 'portugal',
  RO: 'romania',
  RU: 'russia',
  SA: 'saudi arabia',
  SE: 'sweden',
  SG: 'singapore',
  TH: 'thailand',
  TR: 'turkey',
  UA: 'ukraine',
  US: 'united states',
  VN: 'vietnam',
  ZA: 'south africa',
};

export function tavilyBody(q: SearchQuery): Record<string, unknown> {
  const body: Record<string, unknown> = {
    query: q.query,
    max_results: clamp(q.maxResults, 1, MAX_RESULTS),
    search_depth: q.depth,
    topic: 'general',
    include_answer: false,
    include_raw_content: false,
    include_images: false,
    include_favicon: true,
  };
  if (q.includeDomains.length) body.include_domains = q.includeDomains;
  if (q.excludeDomains.length) body.exclude_domains = q.excludeDomains;
  // Tavily refuses time_range together with dates; freshness maps to time_range.
  if (q.freshness) body.time_range = q.freshness;
  else {
    if (q.startDate) body.start_date = q.startDate;
    if (q.endDate) body.end_date = q.endDate;
  }
  const country = q.country ? COUNTRY_NAMES[q.country.toUpperCase()] : undefined;
  if (country) body.country = country;
  return body;
}

function toResult(item: unknown, now: Date): ProviderResult | undefined {
  const r = asRecord(item);
  const url = text(r?.url);
  if (!r || !url) return undefined;
  const out: ProviderResult = { title: plainText(r.title), url, content: plainText(r.content) };
  if (typeof r.raw_content === 'string' && r.raw_content !== '') out.rawContent = r.raw_content;
  return withOptionalFields(out, {
    publishedDate: normalizeDate(r.published_date, now),
    favicon: r.favicon,
    score: r.score,
  });
}

export function parseTavilyResponse(body: unknown, now: Date): ProviderResult[] {
  return resultList(NAME, asRecord(body)?.results, 'results', (x) => toResult(x, now));
}

export function createTavilyProvider(opts: HttpProviderOptions): SearchProvider {
  return createJsonPostProvider(
    {
      name: NAME,
      honours: HONOURS,
      maxResults: MAX_RESULTS,
      authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
      body: tavilyBody,
      parse: parseTavilyResponse,
      // 432/433: the plan's or the pay-as-you-go credit limit is reached.
      statusHints: {
        432: { failure: 'rate_limited', hint: 'plan usage limit reached' },
        433: { failure: 'rate_limited', hint: 'pay-as-you-go limit reached' },
      },
    },
    opts,
  );
}

export const tavilyProvider = describeProvider({
  name: NAME,
  settings: {
    tavilyUrl: s('SCOUT_TAVILY_URL', url, 'https://api.tavily.com/search', 'Tavily /search endpoint (full URL).'),
    tavilyApiKey: s('SCOUT_TAVILY_API_KEY', str, '', 'Tavily API key (tvly-…); required when tavily is listed.'),
  },
  requires: { setting: 'tavilyApiKey', as: '(a Tavily API key (tvly-…))' },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) => createTavilyProvider({ ...deps, url: c.tavilyUrl, apiKey: c.tavilyApiKey.trim() }),
});
