import type { FastifyInstance } from 'fastify';
import type { SearchService } from '../../search/search-service.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { SearchQueryString, SearchRequest, SearchResponse } from '../../schemas/search.ts';
import { createValidator } from '../../schemas/body-validator.ts';
import { assertDecodableQuery } from '../query-encoding.ts';
import { searchRequestFromQuery } from '../search-query-string.ts';
import { errorResponses, okResponse, RATE_HEADERS } from './error-responses.ts';

const ok = okResponse(SearchResponse, 'Ranked results: sponsored entries first, labelled, then organic.', {
  ...RATE_HEADERS,
  'x-scout-provider': { type: 'string', description: 'Provider(s) that answered, comma-separated.' },
});
const responses = (statuses: number[]) => ({ 200: ok, ...errorResponses(ErrorBody, statuses) });

export function searchRoutes(app: FastifyInstance, search: SearchService): void {
  const validateQueryForm = createValidator<SearchRequest>(SearchRequest, 'query string', { query: 'q' });

  app.post<{ Body: SearchRequest }>(
    '/v1/search',
    {
      config: { auth: true },
      schema: {
        operationId: 'search',
        summary: 'search the web',
        body: SearchRequest,
        response: responses([400, 401, 413, 429, 502, 503]),
      },
    },
    async (request, reply) => {
      const { body, providers } = await search.run(request.body, request.ctx);
      reply.header('x-scout-provider', providers.join(','));
      return body;
    },
  );

  app.get<{ Querystring: Record<string, string | string[]> }>(
    '/v1/search',
    {
      config: { auth: true },
      schema: {
        operationId: 'searchByQuery',
        summary: 'search the web (query-string form)',
        querystring: SearchQueryString,
        response: responses([400, 401, 429, 502, 503]),
      },
      // HEAD would run (and charge) a whole search to send no body: 405 instead.
      exposeHeadRoute: false,
      // Before the schema check, so a bad escape is named as such whatever else is wrong.
      preValidation: async (request) => assertDecodableQuery(request.url),
    },
    async (request, reply) => {
      const req = validateQueryForm(searchRequestFromQuery(request.query));
      const { body, providers } = await search.run(req, request.ctx);
      reply.header('x-scout-provider', providers.join(','));
      return body;
    },
  );
}
