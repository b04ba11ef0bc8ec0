import type { Result } from '../schemas/search.ts';
import type { TavilyResult, TavilySearchResponse } from '../schemas/tavily.ts';
import type { RequestContext, SearchOutcome } from '../search/search-service.ts';
import { sponsoredText } from './sponsored-text.ts';
import type { TavilyPlan } from './tavily-request.ts';

/** Seconds since the request arrived, as Tavily's response_time. */
export const responseTime = (ctx: Pick<RequestContext, 'startedAt'>): number =>
  Math.round(performance.now() - ctx.startedAt) / 1000;

/**
 * Organic index 0, 1, … → 0.90, 0.89, … (0.71 at rank 20); the ads before it at -k … -1 →
 * 0.9k … 0.91. Tavily scores lie in 0..1, so organic starts at 0.90 to leave room above it:
 * a client that sorts by score keeps the ads first and the organic order unchanged.
 */
const scoreAt = (index: number): number => (90 - index) / 100;

/**
 * A Scout search → Tavily's search answer. Tavily's clients treat every result as organic,
 * so an ad says what it is in its title and content, comes first and scores highest.
 */
export function tavilyBody(
  plan: TavilyPlan,
  outcome: Pick<SearchOutcome, 'body' | 'advertisers'>,
  ctx: Pick<RequestContext, 'startedAt'>,
): TavilySearchResponse {
  const ads = outcome.body.results.filter((r) => r.type === 'sponsored');
  const organic = outcome.body.results.filter((r) => r.type === 'organic');
  const results: TavilyResult[] = [
    ...ads.map((r, i) => sponsoredEntry(r, outcome.advertisers[i] ?? r.domain, scoreAt(-(ads.length - i)))),
    ...organic.map((r, i): TavilyResult => {
      const out: TavilyResult = {
        title: r.title,
        url: r.url,
        content: r.content,
        score: scoreAt(i),
        raw_content: plan.rawContent ? (r.raw_content ?? null) : null,
      };
      if (r.favicon !== undefined) out.favicon = r.favicon;
      if (r.published_date !== undefined) out.published_date = r.published_date;
      return out;
    }),
  ];
  return {
    query: plan.query,
    follow_up_questions: null,
    answer: null,
    images: [],
    results,
    response_time: responseTime(ctx),
    request_id: outcome.body.request_id,
  };
}

function sponsoredEntry(r: Result, advertiser: string, score: number): TavilyResult {
  const text = sponsoredText(r, advertiser);
  return { title: text.title, url: r.url, content: text.content, score, raw_content: null };
}
