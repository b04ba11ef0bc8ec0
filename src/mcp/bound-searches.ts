import { DomainError } from '../domain/errors.ts';
import { at } from '../domain/must.ts';
import type { SearchResponse } from '../schemas/search.ts';
import { boundSearch } from './bound-search.ts';
import { fairShares } from './fair-shares.ts';
import type { ParallelSearchResult, SearchDone, SearchFailed } from './parallel-search-schemas.ts';
import { jsonResultTokens } from './result-tokens.ts';
import { readLine, searchText, type SearchTextNotes } from './search-text.ts';
import { errorFields, errorText } from './tool-errors.ts';

/**
 * parallel_search's result within the result bound: each query's answer is bounded as
 * web_search bounds one (bound-search.ts: page text, passages, snippets, then the last
 * results), within a fair share of the bound (a query with few results leaves the rest to
 * the others). Each group is one search's answer as web_search renders it.
 */

/** One query's outcome: the /v1/search body, or why it failed. */
export type SearchOutcome = { query: string; response: SearchResponse } | { query: string; error: unknown };

export interface BoundedSearches {
  body: ParallelSearchResult;
  text: string;
  /** `body` as JSON, as measured. */
  json: string;
  tokens: number;
}

const ROUNDS = 6;
// What the heading, the closing line and each entry's JSON around its answer cost, at first.
const WRAPPER = 60;
const PER_ENTRY = 20;

export function boundSearches(
  outcomes: readonly SearchOutcome[],
  limit: number,
  reader: SearchTextNotes['reader'],
): BoundedSearches {
  const n = outcomes.length;
  const failed = outcomes.filter((x) => 'error' in x).length;
  const none: SearchTextNotes = { reader: 'none' };

  /** The result with each answer bounded to its share (whole, without shares). */
  const render = (shares?: readonly number[]): BoundedSearches => {
    const entries: (SearchDone | SearchFailed)[] = [];
    const blocks = [`# ${n} searches${failed ? ` (${failed} failed)` : ''}`];
    outcomes.forEach((x, i) => {
      if (!('response' in x)) {
        entries.push({ query: x.query, ok: false, error: errorFields(x.error) });
        blocks.push(`## Web search: "${x.query.replace(/\s*[\r\n]+\s*/g, ' ')}" (failed)\n${errorText(x.error)}`);
        return;
      }
      const shown =
        shares === undefined
          ? { body: x.response, text: searchText(x.response, none) }
          : boundSearch(x.response, at(shares, i, 'share'), 'none');
      entries.push({ query: x.query, ok: true, response: shown.body });
      blocks.push(shown.text);
    });
    const read = readLine(reader);
    if (read !== undefined && n > failed) blocks.push(read);
    const body: ParallelSearchResult = { searches: entries };
    const text = blocks.join('\n\n');
    const json = JSON.stringify(body);
    return { body, text, json, tokens: jsonResultTokens(text, json, limit) };
  };

  const whole = render();
  if (whole.tokens <= limit) return whole;
  const needs = outcomes.map((x) => ('response' in x ? boundSearch(x.response, limit, 'none').tokens : 0));
  let avail = limit - WRAPPER - PER_ENTRY * n;
  for (let round = 0; round < ROUNDS && avail > 0; round += 1) {
    const part = render(fairShares(needs, avail));
    if (part.tokens <= limit) return part;
    avail -= part.tokens - limit + 16 * (round + 1);
  }
  // Every answer without results: the headings and queries alone.
  const bare = render(needs.map(() => 0));
  if (bare.tokens <= limit) return bare;
  throw new DomainError(
    'invalid',
    `these ${n} queries alone are longer than the result limit of ${limit} tokens; send shorter or fewer queries`,
  );
}
