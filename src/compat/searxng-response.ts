import type { Result } from '../schemas/search.ts';
import type { SearxngResponse, SearxngResult } from '../schemas/searxng.ts';
import type { SearchOutcome } from '../search/search-service.ts';
import { sponsoredText } from './sponsored-text.ts';
import type { SearxngPlan } from './searxng-request.ts';

/** engine of a result when no provider is named (a page past the results, a fused answer). */
export const SCOUT_ENGINE = 'scout';

/** An answer with no results: a page past what Scout serves. */
export const emptySearxngBody = (query: string): SearxngResponse => ({
  query,
  number_of_results: 0,
  results: [],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: [],
  unresponsive_engines: [],
});

/**
 * A Scout search → the SearXNG page the plan asked for. SearXNG clients treat every result
 * as organic (and OpenWebUI sorts by score), so an ad must say what it is in the fields they
 * read: it comes first, with the highest scores, its title and content saying "Sponsored"
 * and its engine "sponsored". Organic results keep Scout's order. Scores fall by 0.01 a
 * place: organic 1.00 at rank 1 down to 0.81 at rank 20 (ranks count through the pages),
 * ads just above 1. Linear, not 1/rank, so a client that drops results far below the top
 * score (some forks drop under 0.15) does not lose the later organic ones.
 */
export function searxngBody(
  plan: SearxngPlan,
  outcome: Pick<SearchOutcome, 'body' | 'providers' | 'advertisers'>,
): SearxngResponse {
  const engines = outcome.providers.length > 0 ? outcome.providers : [SCOUT_ENGINE];
  const engine = engines.length === 1 ? (engines[0] ?? SCOUT_ENGINE) : SCOUT_ENGINE;
  const ads = outcome.body.results.filter((r) => r.type === 'sponsored');
  const organic = outcome.body.results.filter((r) => r.type === 'organic').slice(plan.skip);
  const results: SearxngResult[] = [
    ...ads.map((r, i) => sponsoredEntry(r, outcome.advertisers[i] ?? r.domain, scoreAt(-(ads.length - i)))),
    ...organic.map(
      (r, i): SearxngResult => ({
        url: r.url,
        title: r.title,
        content: r.content,
        score: scoreAt(plan.skip + i),
        engine,
        engines: [...engines],
        category: 'general',
        ...(r.published_date === undefined ? {} : { publishedDate: r.published_date }),
      }),
    ),
  ];
  return { ...emptySearxngBody(plan.query), number_of_results: organic.length, results };
}

/** Organic index 0, 1, … → 1.00, 0.99, …; the ads before it at -k … -1 → 1.0k … 1.01. */
const scoreAt = (index: number): number => (100 - index) / 100;

function sponsoredEntry(r: Result, advertiser: string, score: number): SearxngResult {
  const text = sponsoredText(r, advertiser);
  return {
    url: r.url,
    title: text.title,
    content: text.content,
    score,
    engine: 'sponsored',
    engines: ['sponsored'],
    category: 'sponsored',
  };
}
