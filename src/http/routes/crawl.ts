import type { FastifyInstance } from 'fastify';
import type { CrawlService } from '../../crawl/crawl-service.ts';
import { CrawlRequest, CrawlResponse } from '../../schemas/crawl.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { clientGone } from '../client-gone.ts';
import { errorResponses, okResponse } from './error-responses.ts';

export function crawlRoutes(app: FastifyInstance, crawl: CrawlService): void {
  app.post<{ Body: CrawlRequest }>(
    '/v1/crawl',
    {
      // One request on arrival; each further page or sitemap takes one as the crawl goes (crawl-service.ts).
      config: { auth: true },
      schema: {
        operationId: 'crawlSite',
        summary: "read a site's pages breadth first from a start page, each as markdown, within one call's bounds",
        body: CrawlRequest,
        response: {
          200: okResponse(
            CrawlResponse,
            'The pages read in crawl order, and whether the crawl is complete or which bound stopped it.',
          ),
          ...errorResponses(ErrorBody, [400, 401, 403, 413, 429, 502, 503, 504]),
        },
      },
    },
    // A client that leaves stops the crawl: its fetches end and free their slots.
    async (request, reply) => crawl.run(request.body, { ...request.ctx, signal: clientGone(reply) }),
  );
}
