import type { FastifyInstance } from 'fastify';
import { checkExtractRequest, type ExtractPages } from '../../fetch/extract-pages.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { ExtractRequest, ExtractResponse } from '../../schemas/extract.ts';
import { clientGone } from '../client-gone.ts';
import { errorResponses, okResponse } from './error-responses.ts';

export function extractRoutes(app: FastifyInstance, extract: ExtractPages): void {
  app.post<{ Body: ExtractRequest }>(
    '/v1/extract',
    {
      // One request of the rate limit per URL, taken once the body is valid (auth.ts).
      config: { auth: true, rateLimit: 'per-page' },
      schema: {
        operationId: 'extractPages',
        summary: 'read 1 to 20 pages at once, each as a window of its markdown or its passages relevant to a query',
        body: ExtractRequest,
        response: {
          200: okResponse(ExtractResponse, 'One outcome per URL, in the order asked: the page, or why it failed.'),
          ...errorResponses(ErrorBody, [400, 401, 413, 415, 429, 503]),
        },
      },
    },
    async (request, reply) => {
      checkExtractRequest(request.body);
      await request.takeRequests?.(request.body.urls.length);
      // A client that leaves stops every fetch of the batch and frees their slots.
      return extract.run(request.body, { ...request.ctx, signal: clientGone(reply) });
    },
  );
}
