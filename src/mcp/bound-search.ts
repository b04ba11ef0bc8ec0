import { cutToTokens } from '../content/token-budget.ts';
import type { Result, SearchRequest, SearchResponse } from '../schemas/search.ts';
import { jsonResultTokens, textTokens } from './result-tokens.ts';
import { searchText, type SearchTextNotes } from './search-text.ts';
import { at } from '../domain/must.ts';

/**
 * web_search results within the result bound (SCOUT_MCP_MAX_RESULT_TOKENS). The bound holds
 * for the text and the structured content together, and structuredContent stays a valid
 * SearchResponse: what is shortened is shortened in both.
 */

/**
 * The request as sent to the search service. Advanced depth without max_content_tokens
 * would fetch up to 8000 tokens of page text (the HTTP default), which cannot fit the bound
 * twice over; a quarter of the bound is asked for instead, so the service shares it over the
 * results at paragraph boundaries rather than this file cutting afterwards.
 */
export function searchRequestFor(args: SearchRequest, limit: number): SearchRequest {
  if (args.search_depth !== 'advanced' || args.max_content_tokens !== undefined) return args;
  return { ...args, max_content_tokens: Math.max(100, Math.floor(limit / 4)) };
}

interface Slot {
  text: string;
  set(text: string): void;
}

// What is shortened, in this order: page text (fetch_page gives it whole), then passages,
// then snippets. Only organic results: ads are short and are never cut mid-text.
const STAGES: ((r: Result) => Slot[])[] = [
  (r) =>
    r.raw_content === undefined
      ? []
      : [{ text: r.raw_content, set: (t) => (t === '' ? delete r.raw_content : (r.raw_content = t)) }],
  (r) =>
    (r.extra_snippets ?? []).map((text, i) => ({
      text,
      set: (t) => {
        r.extra_snippets![i] = t;
        // Cut snippets that came out empty leave the list; an empty list leaves the result.
        if (i === r.extra_snippets!.length - 1) {
          r.extra_snippets = r.extra_snippets!.filter((s) => s !== '');
          if (r.extra_snippets.length === 0) delete r.extra_snippets;
        }
      },
    })),
  (r) => [{ text: r.content, set: (t) => (r.content = t) }],
];

// Rounds a stage gets to reach the bound; each sheds what the last count was over.
const ROUNDS = 6;
// Content is in the result twice (text and JSON, where escapes cost a little more).
const COPIES = 2;
const MARGIN = 32;

export interface BoundedSearch {
  body: SearchResponse;
  text: string;
  /** `body` as JSON, as measured (the result sends it as it is: rendered-result.ts). */
  json: string;
  tokens: number;
}

/** `reader`: the tool the text says reads a result (search-text.ts). */
export function boundSearch(body: SearchResponse, limit: number, reader?: SearchTextNotes['reader']): BoundedSearch {
  const notes: SearchTextNotes = reader === undefined ? {} : { reader };
  const whole = searchText(body, notes);
  const json = JSON.stringify(body);
  const tokens = jsonResultTokens(whole, json, limit);
  if (tokens <= limit) return { body, text: whole, json, tokens };

  const out = structuredClone(body);
  const measure = (): BoundedSearch => {
    const sponsoredCount = out.results.filter((r) => r.type === 'sponsored').length;
    out.meta = { sponsored_count: sponsoredCount, result_count: out.results.length };
    const text = searchText(out, { ...notes, shortenedTo: limit });
    const json = JSON.stringify(out);
    return { body: out, text, json, tokens: jsonResultTokens(text, json, limit) };
  };
  let now = measure();
  for (const stage of STAGES) {
    for (let round = 0; round < ROUNDS && now.tokens > limit; round += 1) {
      const slots = out.results.filter((r) => r.type === 'organic').flatMap(stage);
      const counts = slots.map((s) => textTokens(s.text));
      const total = counts.reduce((a, b) => a + b, 0);
      if (total === 0) break;
      const keep = Math.max(0, total - Math.ceil((now.tokens - limit) / COPIES) - MARGIN * (round + 1)) / total;
      slots.forEach((s, i) => {
        s.set(cutToTokens(s.text, Math.floor(at(counts, i, 'token count') * keep)).text);
      });
      now = measure();
    }
    if (now.tokens <= limit) return now;
  }
  // Still over (very many results, long titles or URLs): the last results go, organic ones
  // first, so what remains is a prefix of the ranking.
  while (now.tokens > limit && out.results.length > 0) {
    const organic = out.results.map((r) => r.type).lastIndexOf('organic');
    out.results.splice(organic === -1 ? out.results.length - 1 : organic, 1);
    now = measure();
  }
  return now;
}
