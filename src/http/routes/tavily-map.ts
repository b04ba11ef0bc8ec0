import type { FastifyInstance } from 'fastify';
import { tavilyMapBody, tavilyMapPlan } from '../../compat/tavily-map.ts';
import type { MapService } from '../../map/map-service.ts';
import { TavilyMapBody, TavilyMapResponse } from '../../schemas/tavily.ts';
import { clientGone } from '../client-gone.ts';
import { underPathKey } from '../path-key.ts';
import { okResponse, RATE_HEADERS } from './error-responses.ts';
import { TAVILY_KEY_HINT, tavilyErrorResponses } from './tavily.ts';

export interface TavilyMapOptions {
  map: MapService;
  pathKeys: boolean;
}

/**
 * POST /map: Tavily's site map on the service of POST /v1/map (the same reads, robots.txt,
 * pacing, address policy, and charge as it goes), answered as Tavily's URL list.
 */
export function tavilyMapRoutes(app: FastifyInstance, o: TavilyMapOptions): void {
  app.register(async (scope) => {
    const routes = [{ url: '/map', pathKey: false }];
    if (o.pathKeys) routes.push({ url: underPathKey('/map'), pathKey: true });
    for (const { url, pathKey } of routes) {
      scope.post(
        url,
        {
          config: { auth: true, pathKey, bodyKey: true, tavilyErrors: 'always', missingKeyHint: TAVILY_KEY_HINT },
          schema: {
            tags: ['tavily'],
            ...(pathKey ? { hide: true } : {}),
            operationId: pathKey ? 'tavilyMapPathKey' : 'tavilyMap',
            summary: "list a site's URLs, answered in the Tavily map shape",
            // Documentation only: src/compat/tavily-map.ts reads the body, leniently.
            body: TavilyMapBody,
            response: {
              200: okResponse(TavilyMapResponse, "The site's URLs, in /v1/map's order.", RATE_HEADERS),
              ...tavilyErrorResponses([400, 401, 403, 413, 429, 502, 503, 504]),
            },
          },
          // The body is read by tavilyMapPlan, which words its errors: no schema validation here.
          validatorCompiler: () => () => true,
        },
        async (request, reply) => {
          const plan = tavilyMapPlan(request.body);
          // A client that leaves stops the map: its fetches end and free their slots.
          const ctx = { ...request.ctx, signal: clientGone(reply) };
          const out = await o.map.run(plan.request, ctx, plan.filter === undefined ? {} : { filter: plan.filter });
          return tavilyMapBody(plan, out, request.ctx);
        },
      );
    }
  });
}
