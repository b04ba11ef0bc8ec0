import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { tavilyCrawlBody, tavilyCrawlPlan } from '../../compat/tavily-crawl.ts';
import { tavilyMapBody, tavilyMapPlan } from '../../compat/tavily-map.ts';
import type { CrawlService } from '../../crawl/crawl-service.ts';
import type { MapService } from '../../map/map-service.ts';
import { TavilyCrawlBody, TavilyCrawlResponse, TavilyMapBody, TavilyMapResponse } from '../../schemas/tavily.ts';
import type { RequestContext } from '../../search/search-service.ts';
import { clientGone } from '../client-gone.ts';
import { underPathKey } from '../path-key.ts';
import { okResponse, RATE_HEADERS } from './error-responses.ts';
import { TAVILY_KEY_HINT, tavilyErrorResponses } from './tavily.ts';

/** One of Tavily's site routes (/map, /crawl): where, how OpenAPI shows it, and its work. */
interface TavilySiteRoute {
  path: '/map' | '/crawl';
  operationId: string;
  summary: string;
  /** Documentation only: the route's `answer` reads the body, leniently, and words its errors. */
  body: TSchema;
  response: TSchema;
  responseText: string;
  /** Reads the body and answers in Tavily's shape; `ctx.signal` aborts when the client leaves. */
  answer(body: unknown, ctx: RequestContext): Promise<unknown>;
}

/** Registers `route`, and its copy under the path key when SCOUT_PATH_KEYS is on. */
function tavilySiteRoute(app: FastifyInstance, pathKeys: boolean, route: TavilySiteRoute): void {
  app.register(async (scope) => {
    const routes: { url: string; pathKey: boolean }[] = [{ url: route.path, pathKey: false }];
    if (pathKeys) routes.push({ url: underPathKey(route.path), pathKey: true });
    for (const { url, pathKey } of routes) {
      scope.post(
        url,
        {
          config: { auth: true, pathKey, bodyKey: true, tavilyErrors: 'always', missingKeyHint: TAVILY_KEY_HINT },
          schema: {
            tags: ['tavily'],
            ...(pathKey ? { hide: true } : {}),
            operationId: pathKey ? `${route.operationId}PathKey` : route.operationId,
            summary: route.summary,
            body: route.body,
            response: {
              200: okResponse(route.response, route.responseText, RATE_HEADERS),
              ...tavilyErrorResponses([400, 401, 403, 413, 429, 502, 503, 504]),
            },
          },
          // The body is read by the route's plan, which words its errors: no schema validation here.
          validatorCompiler: () => () => true,
        },
        // A client that leaves stops the walk: its fetches end and free their slots.
        async (request, reply) => route.answer(request.body, { ...request.ctx, signal: clientGone(reply) }),
      );
    }
  });
}

/**
 * POST /map: Tavily's site map on the service of POST /v1/map (the same reads, robots.txt,
 * pacing, address policy, and charge as it goes), answered as Tavily's URL list.
 */
export function tavilyMapRoutes(app: FastifyInstance, o: { map: MapService; pathKeys: boolean }): void {
  tavilySiteRoute(app, o.pathKeys, {
    path: '/map',
    operationId: 'tavilyMap',
    summary: "list a site's URLs, answered in the Tavily map shape",
    body: TavilyMapBody,
    response: TavilyMapResponse,
    responseText: "The site's URLs, in /v1/map's order.",
    async answer(body, ctx) {
      const plan = tavilyMapPlan(body);
      const out = await o.map.run(plan.request, ctx, plan.filter === undefined ? {} : { filter: plan.filter });
      return tavilyMapBody(plan, out, ctx);
    },
  });
}

/**
 * POST /crawl: Tavily's crawl on the service of POST /v1/crawl (the same walker, robots.txt,
 * pacing, address policy, bounds, and charge as it goes), answered as Tavily's page list.
 */
export function tavilyCrawlRoutes(app: FastifyInstance, o: { crawl: CrawlService; pathKeys: boolean }): void {
  tavilySiteRoute(app, o.pathKeys, {
    path: '/crawl',
    operationId: 'tavilyCrawl',
    summary: "read a site's pages breadth first, answered in the Tavily crawl shape",
    body: TavilyCrawlBody,
    response: TavilyCrawlResponse,
    responseText: "The pages read, in /v1/crawl's order.",
    async answer(body, ctx) {
      const plan = tavilyCrawlPlan(body);
      const out = await o.crawl.run(plan.request, ctx, plan.filter === undefined ? {} : { filter: plan.filter });
      return tavilyCrawlBody(plan, out, ctx);
    },
  });
}
