import type { FastifyInstance } from 'fastify';
import { firecrawlMapBody, firecrawlMapPlan } from '../../compat/firecrawl-map.ts';
import type { MapService } from '../../map/map-service.ts';
import { FirecrawlMapBody, FirecrawlMapResponse } from '../../schemas/firecrawl.ts';
import { clientGone } from '../client-gone.ts';
import { okResponse, RATE_HEADERS } from './error-responses.ts';
import { firecrawlErrorResponses, firecrawlVariants } from './firecrawl.ts';

export interface FirecrawlMapOptions {
  map: MapService;
  /** SCOUT_PATH_KEYS: also under /k/:key/v2/map. */
  pathKeys: boolean;
}

/**
 * POST /v2/map: Firecrawl's site map on the service of POST /v1/map (the same reads,
 * robots.txt, pacing, address policy, and charge as it goes), answered as Firecrawl's links.
 */
export function firecrawlMapRoutes(app: FastifyInstance, o: FirecrawlMapOptions): void {
  app.register(async (scope) => {
    for (const { prefix, config, common, op } of firecrawlVariants(o.pathKeys)) {
      scope.post(
        `${prefix}/v2/map`,
        {
          config,
          schema: {
            ...common,
            operationId: op('firecrawlMap'),
            summary: "list a site's URLs, answered in the Firecrawl v2 map shape",
            body: FirecrawlMapBody,
            response: {
              200: okResponse(
                FirecrawlMapResponse,
                "The site's URLs, in /v1/map's order; agent_hints when the map stopped early.",
                RATE_HEADERS,
              ),
              ...firecrawlErrorResponses([400, 401, 403, 408, 413, 429, 502, 503]),
            },
          },
          // The body is read by firecrawlMapPlan, which words its errors: no schema validation here.
          validatorCompiler: () => () => true,
        },
        async (request, reply) => {
          const plan = firecrawlMapPlan(request.body);
          // A client that leaves stops the map: its fetches end and free their slots.
          const out = await o.map.run(plan.request, { ...request.ctx, signal: clientGone(reply) });
          return firecrawlMapBody(plan, out);
        },
      );
    }
  });
}
