import type { FastifyInstance } from 'fastify';
import { tavilyCrawlBody, tavilyCrawlPlan } from '../../compat/tavily-crawl.ts';
import type { CrawlService } from '../../crawl/crawl-service.ts';
import { TavilyCrawlBody, TavilyCrawlResponse } from '../../schemas/tavily.ts';
import { clientGone } from '../client-gone.ts';
import { underPathKey } from '../path-key.ts';
import { okResponse, RATE_HEADERS } from './error-responses.ts';
import { TAVILY_KEY_HINT, tavilyErrorResponses } from './tavily.ts';

export interface TavilyCrawlOptions {
  crawl: CrawlService;
  pathKeys: boolean;
}

/**
 * POST /crawl: Tavily's crawl on the service of POST /v1/crawl (the same walker, robots.txt,
 * pacing, address policy, bounds, and charge as it goes), answered as Tavily's page list.
 */
export function tavilyCrawlRoutes(app: FastifyInstance, o: TavilyCrawlOptions): void {
  app.register(async (scope) => {
    const routes = [{ url: '/crawl', pathKey: false }];
    if (o.pathKeys) routes.push({ url: underPathKey('/crawl'), pathKey: true });
    for (const { url, pathKey } of routes) {
      scope.post(
        url,
        {
          config: { auth: true, pathKey, bodyKey: true, tavilyErrors: 'always', missingKeyHint: TAVILY_KEY_HINT },
          schema: {
            tags: ['tavily'],
            ...(pathKey ? { hide: true } : {}),
            operationId: pathKey ? 'tavilyCrawlPathKey' : 'tavilyCrawl',
            summary: "read a site's pages breadth first, answered in the Tavily crawl shape",
            // Documentation only: src/compat/tavily-crawl.ts reads the body, leniently.
            body: TavilyCrawlBody,
            response: {
              200: okResponse(TavilyCrawlResponse, "The pages read, in /v1/crawl's order.", RATE_HEADERS),
              ...tavilyErrorResponses([400, 401, 403, 413, 429, 502, 503, 504]),
            },
          },
          // The body is read by tavilyCrawlPlan, which words its errors: no schema validation here.
          validatorCompiler: () => () => true,
        },
        async (request, reply) => {
          const plan = tavilyCrawlPlan(request.body);
          // A client that leaves stops the crawl: its fetches end and free their slots.
          const ctx = { ...request.ctx, signal: clientGone(reply) };
          const out = await o.crawl.run(plan.request, ctx, plan.filter === undefined ? {} : { filter: plan.filter });
          return tavilyCrawlBody(plan, out, request.ctx);
        },
      );
    }
  });
}
