import type { FetchRequest, FetchResponse } from '../schemas/fetch.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import type { RequestContext } from '../search/search-service.ts';

/** What POST /v1/fetch needs from the fetch pipeline (src/fetch/fetch-service.ts provides it). */
export interface PageFetcher {
  fetch(req: {
    url: string;
    maxChars: number;
    signal?: AbortSignal | undefined;
    caller?: string | undefined;
  }): Promise<Omit<FetchResponse, 'request_id' | 'response_time_ms' | 'final_url'> & { finalUrl: string }>;
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
  };
}

export type FetchPage = ReturnType<typeof createFetchPage>;
