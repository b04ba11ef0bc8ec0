import type { SearchRequest, SearchResponse, Result } from '../schemas/search.ts';
import type { SearchBackend } from '../providers/registry.ts';
import { displayDomain } from './domains.ts';
import type { SearchBudget } from './search-budget.ts';
import { toSearchQuery } from './search-request.ts';
import type { ProviderResult } from './search-types.ts';

export interface RequestContext {
  requestId: string;
  /** performance.now() when the request arrived: response_time_ms is measured from it. */
  startedAt: number;
}

export interface SearchOutcome {
  body: SearchResponse;
  /** Provider(s) that answered, for the x-scout-provider header. */
  providers: string[];
}

export interface SearchServiceDeps {
  backend: SearchBackend;
  budget: SearchBudget;
  now?: () => Date;
}

const organic = (r: ProviderResult, i: number): Result => {
  const out: Result = {
    type: 'organic',
    position: i + 1,
    title: r.title,
    url: r.url,
    domain: displayDomain(r.url),
    content: r.content,
  };
  if (r.extraSnippets?.length) out.extra_snippets = r.extraSnippets;
  if (r.rawContent !== undefined) out.raw_content = r.rawContent;
  if (r.publishedDate) out.published_date = r.publishedDate;
  if (r.favicon) out.favicon = r.favicon;
  return out;
};

/** POST/GET /v1/search: normalise, charge the budget, ask the backend, shape the answer. */
export function createSearchService(deps: SearchServiceDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    async run(req: SearchRequest, ctx: RequestContext): Promise<SearchOutcome> {
      const query = toSearchQuery(req, now());
      const charge = await deps.budget.charge(query.depth);
      let answer: Awaited<ReturnType<SearchBackend['search']>>;
      try {
        answer = await deps.backend.search(query);
      } catch (e) {
        await deps.budget.refund(charge).catch(() => undefined);
        throw e;
      }
      const results = answer.results.slice(0, query.maxResults).map(organic);
      return {
        providers: answer.providers,
        body: {
          request_id: ctx.requestId,
          query: req.query,
          results,
          response_time_ms: Math.round((performance.now() - ctx.startedAt) * 100) / 100,
          meta: { sponsored_count: 0, result_count: results.length },
        },
      };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
