import type { FastifyInstance } from 'fastify';
import type { UsageReport } from '../../search/usage-report.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { Usage } from '../../schemas/usage.ts';
import { errorResponses, okResponse, RATE_HEADERS } from './error-responses.ts';

/**
 * GET /v1/usage (a Scout addition, docs/api.md): needs a key like search, but reads the
 * key's bucket without taking from it (an agent that was told 429 can still ask when to
 * resume), so it is never 429; and it is never charged to the budget.
 */
export function usageRoutes(app: FastifyInstance, usage: UsageReport): void {
  app.get(
    '/v1/usage',
    {
      config: { auth: true, rateLimit: 'peek' },
      schema: {
        operationId: 'getUsage',
        summary: "the calling key's rate limit and the monthly search budget, to pace requests",
        response: {
          200: okResponse(
            Usage,
            'The rate limit of the calling key and the monthly budget; charges nothing, takes no request.',
            {
              ...RATE_HEADERS,
              'cache-control': { type: 'string', description: 'no-store: the numbers change with every request.' },
            },
          ),
          ...errorResponses(ErrorBody, [401]),
          // Never the budget's 503: an exhausted budget is reported here as units_left 0.
          503: {
            ...errorResponses(ErrorBody, [503])[503],
            description: 'A store (keys, rate limit or budget) is unavailable; retry after Retry-After.',
          },
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return usage.run(request.rateLimitState!, request.ctx);
    },
  );
}
