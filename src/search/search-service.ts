import type { SearchRequest, SearchResponse, Result } from '../schemas/search.ts';
import type { SearchBackend } from './search-backend.ts';
import { isAnonymousCaller } from '../domain/anonymous-caller.ts';
import { displayDomain } from '../domain/domains.ts';
import type { BudgetCharge, SearchBudget } from './search-budget.ts';
import { toSearchQuery } from './search-request.ts';
import type { ProviderResult, SearchQuery } from './search-types.ts';

export interface RequestContext {
  requestId: string;
  /** The request's logger (its lines carry request_id); optional for callers outside HTTP. */
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** performance.now() when the request arrived: response_time_ms is measured from it. */
  startedAt: number;
  /**
   * Who the request is for (the API key's id, or `anon:<address group>` for the anonymous
   * tier): the fetch capacity shares its slots fairly between callers, and an anonymous
   * caller's searches are charged to the anonymous share too.
   */
  caller?: string | undefined;
  /** Aborts when nobody waits for the answer any more (the client closed its connection, an MCP call was cancelled). */
  signal?: AbortSignal | undefined;
}

export interface SearchOutcome {
  body: SearchResponse;
  /** Provider(s) that answered, for the x-scout-provider header. */
  providers: string[];
  /** The advertiser of each sponsored entry of body.results, in their order. */
  advertisers: string[];
}

export interface RunOptions {
  /**
   * false: no sponsored entries are chosen (no auction, no impression), for a compat shape
   * the operator turned them off for, or a later page of one (src/compat). Default true.
   */
  sponsored?: boolean;
}

/** Fills raw_content/extra_snippets (advanced depth) and applies max_content_tokens. */
export interface ContentStage {
  /** `ctx.caller`: who the search is for; its page fetches share the fetch capacity as that caller's. */
  apply(query: SearchQuery, results: ProviderResult[], ctx?: Pick<RequestContext, 'caller'>): Promise<ProviderResult[]>;
}

/** One sponsored entry and who pays for it (shapes without a label field name the advertiser in its text). */
export interface SponsoredPick {
  result: Result;
  advertiser: string;
}

/** Chooses the sponsored entries of one search; never sees or changes organic results. */
export interface SponsoredStage {
  select(query: SearchQuery, ctx: RequestContext): Promise<SponsoredPick[]>;
}

export interface SearchServiceDeps {
  backend: SearchBackend;
  budget: SearchBudget;
  /** The anonymous tier's share of the budget (src/search/anonymous-budget.ts), while the tier is on. */
  anonymousBudget?: SearchBudget;
  content?: ContentStage;
  sponsored?: SponsoredStage;
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
  /**
   * Charges a search to the budget, and an anonymous caller's to the anonymous share too:
   * the budget first, so the share's refusal (which tells the caller a key is still served)
   * comes only while the budget has units; a search the share refuses gives its units back
   * to the budget. `refund` gives back both (a search that was not served).
   */
  async function chargeFor(depth: SearchQuery['depth'], caller: string | undefined) {
    const share = isAnonymousCaller(caller) ? deps.anonymousBudget : undefined;
    const charge = await deps.budget.charge(depth);
    let shared: BudgetCharge | undefined;
    if (share) {
      try {
        shared = await share.charge(depth);
      } catch (e) {
        await deps.budget.refund(charge).catch(() => undefined);
        throw e;
      }
    }
    return {
      async refund(): Promise<void> {
        await deps.budget.refund(charge).catch(() => undefined);
        if (share && shared) await share.refund(shared).catch(() => undefined);
      },
    };
  }

  return {
    async run(req: SearchRequest, ctx: RequestContext, options: RunOptions = {}): Promise<SearchOutcome> {
      const query = toSearchQuery(req, now());
      const charges = await chargeFor(query.depth, ctx.caller);
      let answer: Awaited<ReturnType<SearchBackend['search']>>;
      let found: ProviderResult[];
      let ads: SponsoredPick[];
      try {
        answer = await deps.backend.search(query, undefined, ctx.log);
        found = answer.results.slice(0, query.maxResults);
        if (deps.content) found = await deps.content.apply(query, found, ctx);
        // Sponsored entries come first and are numbered on their own (docs/api.md), so the
        // organic list below is exactly what the providers gave, whatever the ads.
        ads = deps.sponsored && options.sponsored !== false ? await deps.sponsored.select(query, ctx) : [];
      } catch (e) {
        // A search that is not served is not charged, whichever stage failed.
        await charges.refund();
        throw e;
      }
      const results = [...ads.map((a) => a.result), ...found.map(organic)];
      return {
        providers: answer.providers,
        advertisers: ads.map((a) => a.advertiser),
        body: {
          request_id: ctx.requestId,
          query: req.query,
          results,
          response_time_ms: Math.round((performance.now() - ctx.startedAt) * 100) / 100,
          meta: { sponsored_count: ads.length, result_count: results.length },
        },
      };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
