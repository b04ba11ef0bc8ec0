import type { FastifyInstance } from 'fastify';
import type { MapService } from '../../map/map-service.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { MapRequest, MapResponse } from '../../schemas/map.ts';
import { clientGone } from '../client-gone.ts';
import { errorResponses, okResponse } from './error-responses.ts';

export function mapRoutes(app: FastifyInstance, map: MapService): void {
  app.post<{ Body: MapRequest }>(
    '/v1/map',
    {
      config: { auth: true },
      schema: {
        operationId: 'mapSite',
        summary: "list a site's URLs from its sitemaps and the links of its pages",
        body: MapRequest,
        response: {
          200: okResponse(MapResponse, 'The URLs found, and whether the map is complete or which bound stopped it.'),
          ...errorResponses(ErrorBody, [400, 401, 403, 413, 429, 502, 503, 504]),
        },
      },
    },
    // A client that leaves stops the map: its fetches end and free their slots.
    async (request, reply) => map.run(request.body, { ...request.ctx, signal: clientGone(reply) }),
  );
}
