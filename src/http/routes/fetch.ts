import type { FastifyInstance } from 'fastify';
import type { FetchPage } from '../../fetch/fetch-page.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { FetchRequest, FetchResponse } from '../../schemas/fetch.ts';
import { clientGone } from '../client-gone.ts';
import { errorResponses, okResponse } from './error-responses.ts';

export function fetchRoutes(app: FastifyInstance, fetch: FetchPage): void {
  app.post<{ Body: FetchRequest }>(
    '/v1/fetch',
    {
      config: { auth: true },
      schema: {
        operationId: 'fetchPage',
        summary: 'fetch one page and return its main content as markdown',
        body: FetchRequest,
        response: {
          200: okResponse(FetchResponse, "The page's main content as markdown."),
          ...errorResponses(ErrorBody, [400, 401, 403, 413, 415, 429, 502, 503, 504]),
        },
      },
    },
    // A client that leaves stops its fetch (upstream request, extraction) and frees its slot.
    async (request, reply) => fetch.run(request.body, { ...request.ctx, signal: clientGone(reply) }),
  );
}
