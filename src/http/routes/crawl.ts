import type { FastifyInstance } from 'fastify';
import type { CrawlJobs } from '../../crawl/crawl-jobs.ts';
import type { CrawlService } from '../../crawl/crawl-service.ts';
import { CrawlJob, CrawlJobId } from '../../schemas/crawl-job.ts';
import { CrawlRequest, CrawlResponse } from '../../schemas/crawl.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { clientGone } from '../client-gone.ts';
import { errorResponses, okResponse } from './error-responses.ts';

export function crawlRoutes(app: FastifyInstance, crawl: CrawlService, jobs: CrawlJobs): void {
  app.post<{ Body: CrawlRequest }>(
    '/v1/crawl',
    {
      // One request on arrival; each further page or sitemap takes one as the crawl goes (crawl-service.ts).
      config: { auth: true },
      schema: {
        operationId: 'crawlSite',
        summary:
          "read a site's pages breadth first from a start page, each as markdown, within one call's bounds, or as a job (async: true)",
        body: CrawlRequest,
        response: {
          200: okResponse(
            CrawlResponse,
            'The pages read in crawl order, and whether the crawl is complete or which bound stopped it.',
          ),
          202: okResponse(
            CrawlJob,
            'async: true: the job, queued; GET /v1/crawl/{id} (the Location header) reads it.',
            {
              location: { type: 'string', description: 'The job: /v1/crawl/{id}.' },
            },
          ),
          ...errorResponses(ErrorBody, [400, 401, 403, 413, 429, 502, 503, 504]),
        },
      },
    },
    async (request, reply) => {
      if (request.body.async === true) {
        const job = await jobs.start(request.body, request.ctx);
        reply.code(202).header('location', `/v1/crawl/${job.id}`);
        return job;
      }
      // A client that leaves stops the crawl: its fetches end and free their slots.
      return crawl.run(request.body, { ...request.ctx, signal: clientGone(reply) });
    },
  );

  // Reading a job takes nothing from the key's bucket: polling does not slow the crawl it
  // polls, whose pages draw on the same bucket.
  app.get<{ Params: CrawlJobId }>(
    '/v1/crawl/:id',
    {
      config: { auth: true, rateLimit: 'peek' },
      schema: {
        operationId: 'getCrawlJob',
        summary: 'an asynchronous crawl job: its state, and its pages so far or in all',
        params: CrawlJobId,
        response: {
          200: okResponse(CrawlJob, 'The job as it stands; takes nothing from the rate limit.'),
          ...errorResponses(ErrorBody, [400, 401, 404, 503]),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return jobs.get(request.params.id, request.ctx);
    },
  );

  app.delete<{ Params: CrawlJobId }>(
    '/v1/crawl/:id',
    {
      config: { auth: true },
      schema: {
        operationId: 'cancelCrawlJob',
        summary: 'cancel an asynchronous crawl job (its pages so far stay readable)',
        params: CrawlJobId,
        response: {
          200: okResponse(CrawlJob, 'The job after it: cancelled, or as it was when it had already ended.'),
          ...errorResponses(ErrorBody, [400, 401, 404, 429, 503]),
        },
      },
    },
    async (request) => jobs.cancel(request.params.id, request.ctx),
  );
}
