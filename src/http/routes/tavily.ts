import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { extractPlan, urlProblem } from '../../compat/tavily-extract.ts';
import { markdownToPlainText } from '../../content/markdown-to-text.ts';
import { tavilyPlan } from '../../compat/tavily-request.ts';
import { responseTime, tavilyBody } from '../../compat/tavily-response.ts';
import { readPages } from '../../content/read-batch.ts';
import { DomainError, isDomainError } from '../../domain/errors.ts';
import type { FetchPage } from '../../fetch/fetch-page.ts';
import {
  TavilyError,
  TavilyExtractBody,
  TavilyExtractResponse,
  type TavilySearchResponse,
} from '../../schemas/tavily.ts';
import type { SearchService } from '../../search/search-service.ts';
import { clientGone } from '../client-gone.ts';
import { underPathKey } from '../path-key.ts';
import { okResponse, RATE_HEADERS } from './error-responses.ts';

export interface TavilySearchOptions {
  search: SearchService;
  /** SCOUT_COMPAT_SPONSORED names tavily. */
  sponsored: boolean;
}

/** Added to the missing-key message of the Tavily routes. */
export const TAVILY_KEY_HINT = ', or "api_key" in the JSON body';

const TAVILY_STATUS: Record<number, string> = {
  400: 'Invalid request (Tavily: bad request).',
  401: 'Missing, unknown or revoked API key.',
  403: "Refused: the site's address is private, loopback or reserved.",
  413: 'Request body too large.',
  429: 'Rate limited; see the Retry-After header (seconds).',
  432: "The monthly search budget is exhausted (Tavily's plan limit); Retry-After says when it resets.",
  502: 'Upstream failed.',
  503: 'Backend unavailable.',
  504: "The site's robots.txt was not read in time: nothing on it is mapped.",
};

/** Tavily's error body for each status, for OpenAPI (the error handler writes them). */
export const tavilyErrorResponses = (statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((s) => [s, { ...TavilyError, description: TAVILY_STATUS[s] ?? 'Error' }]));

/** POST /search with a JSON body: the Tavily search on the same search service as /v1. */
export function tavilySearch(o: TavilySearchOptions) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<TavilySearchResponse> => {
    const plan = tavilyPlan(request.body);
    const outcome = await o.search.run(plan.request, request.ctx, { sponsored: o.sponsored });
    reply.header('x-scout-provider', outcome.providers.join(','));
    return tavilyBody(plan, outcome, request.ctx);
  };
}

export interface TavilyExtractOptions {
  fetch: FetchPage;
  pathKeys: boolean;
}

/** A fetch failure, short: the reason Scout gives on /v1/fetch, or a generic one for a bug. */
export const reasonOf = (e: unknown): string =>
  isDomainError(e) ? e.message : 'internal error; the request id identifies it in the server logs';

/**
 * POST /extract: each URL through the same fetch service as /v1/fetch (address policy,
 * limits, fair share of the fetch capacity by key). The URLs go at once; the capacity queues
 * them as it queues any caller's fetches (the batch reader of /v1/extract). A URL refused or
 * failed lands in failed_results.
 */
export function tavilyExtractRoutes(app: FastifyInstance, o: TavilyExtractOptions): void {
  app.register(async (scope) => {
    const routes = [{ url: '/extract', pathKey: false }];
    if (o.pathKeys) routes.push({ url: underPathKey('/extract'), pathKey: true });
    for (const { url, pathKey } of routes) {
      scope.post(
        url,
        {
          config: { auth: true, pathKey, bodyKey: true, tavilyErrors: 'always', missingKeyHint: TAVILY_KEY_HINT },
          schema: {
            tags: ['tavily'],
            ...(pathKey ? { hide: true } : {}),
            operationId: pathKey ? 'tavilyExtractPathKey' : 'tavilyExtract',
            summary: 'read pages, answered in the Tavily extract shape',
            // Documentation only: src/compat/tavily-extract.ts reads the body, leniently.
            body: { ...TavilyExtractBody, additionalProperties: true },
            response: {
              200: okResponse(
                TavilyExtractResponse,
                'Pages read in results, the others in failed_results.',
                RATE_HEADERS,
              ),
              ...tavilyErrorResponses([400, 401, 413, 429]),
            },
          },
          // The body is read by extractPlan, which words its errors: no schema validation here.
          validatorCompiler: () => () => true,
        },
        async (request, reply) => {
          const { urls, format } = extractPlan(request.body);
          const signal = clientGone(reply);
          // The batch reader of /v1/extract and fetch_pages (src/content/read-batch.ts).
          const outcomes = await readPages(urls, (u) => {
            const problem = urlProblem(u);
            if (problem !== undefined) throw new DomainError('invalid', problem);
            return o.fetch.run({ url: u }, { ...request.ctx, signal });
          });
          const results = outcomes.flatMap((r) =>
            'page' in r
              ? [
                  {
                    url: r.url,
                    raw_content: format === 'text' ? markdownToPlainText(r.page.content) : r.page.content,
                    images: [] as never[],
                  },
                ]
              : [],
          );
          const failed = outcomes.flatMap((r) => ('error' in r ? [{ url: r.url, error: reasonOf(r.error) }] : []));
          return {
            results,
            failed_results: failed,
            response_time: responseTime(request.ctx),
            request_id: request.ctx.requestId,
          };
        },
      );
    }
  });
}
