import type { FetchRequest, FetchResponse } from '../schemas/fetch.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import type { RequestContext } from '../search/search-service.ts';
import type { FetchOutcome, FetchWants } from './fetch-service.ts';

/** What POST /v1/fetch needs from the fetch pipeline (src/fetch/fetch-service.ts provides it). */
export interface PageFetcher {
  fetch(req: {
    url: string;
    maxChars: number;
    signal?: AbortSignal | undefined;
    caller?: string | undefined;
    want?: FetchWants | undefined;
  }): Promise<
    Omit<FetchResponse, 'request_id' | 'response_time_ms' | 'final_url'> & { finalUrl: string } & Pick<
        FetchOutcome,
        'status' | 'raw' | 'facts'
      >
  >;
}

/** A page read for a shape that reports more than /v1/fetch (the Firecrawl scrape). */
export interface PageRead {
  url: string;
  maxChars?: number;
  want: FetchWants;
  /** Ends the fetch early (as a timeout); the caller's client-gone signal is joined to it. */
  signal?: AbortSignal;
}

/** POST /v1/fetch: defaults, the pipeline, and the envelope fields of SPEC 2.6. */
export function createFetchPage(fetcher: PageFetcher) {
  return {
    async run(req: FetchRequest, ctx: RequestContext): Promise<FetchResponse> {
      // The caller shares the fetch capacity fairly; its signal stops the fetch (upstream
      // request and extraction) and frees its slot when nobody waits for the answer.
      const out = await fetcher.fetch({
        url: req.url,
        maxChars: req.max_chars ?? FETCH_LIMITS.maxChars.default,
        signal: ctx.signal,
        caller: ctx.caller,
      });
      return {
        request_id: ctx.requestId,
        url: out.url,
        final_url: out.finalUrl,
        title: out.title,
        content: out.content,
        chars: out.chars,
        truncated: out.truncated,
        response_time_ms: Math.round((performance.now() - ctx.startedAt) * 100) / 100,
        meta: out.meta,
      };
    },
    /** The pipeline's whole outcome, with what `want` asks for beside the markdown. */
    async read(req: PageRead, ctx: RequestContext) {
      const signals = [ctx.signal, req.signal].filter((s): s is AbortSignal => s !== undefined);
      return fetcher.fetch({
        url: req.url,
        maxChars: req.maxChars ?? FETCH_LIMITS.maxChars.default,
        signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
        caller: ctx.caller,
        want: req.want,
      });
    },
  };
}

export type FetchPage = ReturnType<typeof createFetchPage>;
