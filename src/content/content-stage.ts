import type { ContentStage } from '../search/search-service.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import { gatherPages, type FetchPageContent, type GatheredPage } from './gather-pages.ts';
import { cutToTokens, shareInRankOrder } from './token-budget.ts';
import { at } from '../domain/must.ts';

export type { FetchPageContent, PageContent } from './gather-pages.ts';

/**
 * search_depth and max_content_tokens (docs/content.md):
 * - basic: results as the providers gave them, never raw_content; with max_content_tokens,
 *   `content` and `extra_snippets` share the budget.
 * - advanced: every result's page (stored text when the provider has it, else fetched)
 *   becomes raw_content, cut so the raw_content tokens of all results share the budget,
 *   and extra_snippets becomes the best passages of the page.
 * Results are never reordered, added or dropped; only content, extraSnippets and
 * rawContent change, on copies.
 */

export const CONTENT_DEFAULTS = Object.freeze({ concurrency: 4, deadlineMs: 8000, maxContentTokens: 8000 });

export interface ContentStageDeps {
  fetchPage: FetchPageContent;
  /** Pages fetched at once (default 4). */
  concurrency?: number;
  /** One deadline for all the fetches of a search, in ms (default 8000). */
  deadlineMs?: number;
  /** Budget of an advanced search that names none (default 8000). */
  defaultMaxTokens?: number;
  /** Told about each page that could not be fetched (for logs); the search goes on. */
  onPageError?: (url: string, error: unknown) => void;
}

/** A copy without rawContent (field by field: a rest-spread copy was a visible cost per result). */
function withoutRaw(r: ProviderResult): ProviderResult {
  const out: ProviderResult = { title: r.title, url: r.url, content: r.content };
  if (r.publishedDate !== undefined) out.publishedDate = r.publishedDate;
  if (r.favicon !== undefined) out.favicon = r.favicon;
  if (r.extraSnippets !== undefined) out.extraSnippets = r.extraSnippets.slice();
  if (r.score !== undefined) out.score = r.score;
  return out;
}

/** Cuts one basic result's `content`, then its extra snippets in order, to `limit` tokens; returns tokens kept. */
function boundSnippets(r: ProviderResult, limit: number): number {
  const content = cutToTokens(r.content, limit);
  r.content = content.text;
  let left = limit - content.tokens;
  const kept: string[] = [];
  for (const snippet of r.extraSnippets ?? []) {
    const cut = cutToTokens(snippet, left);
    if (cut.text !== '') kept.push(cut.text);
    left -= cut.tokens;
    if (cut.truncated) break;
  }
  if (kept.length > 0) r.extraSnippets = kept;
  else delete r.extraSnippets;
  return limit - left;
}

function basic(query: SearchQuery, results: ProviderResult[]): ProviderResult[] {
  const out = results.map(withoutRaw);
  if (query.maxContentTokens !== undefined) {
    shareInRankOrder(query.maxContentTokens, out.length, (i, limit) => boundSnippets(at(out, i, 'result'), limit));
  }
  return out;
}

/** Copies of `results` with the pages' raw content cut to the budget and their passages. */
function withPages(results: ProviderResult[], pages: (GatheredPage | undefined)[], budget: number): ProviderResult[] {
  const out = results.map(withoutRaw);
  // The results whose page was gathered (pages is by result index), in rank order.
  const present = out.flatMap((result, i) => {
    const page = pages[i];
    return page === undefined ? [] : [{ result, page }];
  });
  shareInRankOrder(budget, present.length, (k, limit) => {
    const { result, page } = at(present, k, 'result with a page');
    const cut = cutToTokens(page.text, limit);
    if (cut.text !== '') result.rawContent = cut.text;
    if (page.passages.length > 0) result.extraSnippets = page.passages;
    return cut.tokens;
  });
  return out;
}

export function createContentStage(deps: ContentStageDeps): ContentStage {
  const options = {
    fetchPage: deps.fetchPage,
    concurrency: deps.concurrency ?? CONTENT_DEFAULTS.concurrency,
    deadlineMs: deps.deadlineMs ?? CONTENT_DEFAULTS.deadlineMs,
    ...(deps.onPageError ? { onPageError: deps.onPageError } : {}),
  };
  const defaultBudget = deps.defaultMaxTokens ?? CONTENT_DEFAULTS.maxContentTokens;
  return {
    async apply(query, results, ctx) {
      if (query.depth !== 'advanced' || results.length === 0) return basic(query, results);
      const pages = await gatherPages(query.query, results, { ...options, caller: ctx?.caller });
      return withPages(results, pages, query.maxContentTokens ?? defaultBudget);
    },
  };
}
