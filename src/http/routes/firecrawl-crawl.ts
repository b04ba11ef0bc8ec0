import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { firecrawlCrawlPlan } from '../../compat/firecrawl-crawl.ts';
import { firecrawlCancelBody, firecrawlCrawlStatusBody } from '../../compat/firecrawl-crawl-status.ts';
import type { CrawlJobs } from '../../crawl/crawl-jobs.ts';
import { DomainError } from '../../domain/errors.ts';
import { CrawlJobId } from '../../schemas/crawl-job.ts';
import {
  FirecrawlCrawlBody,
  FirecrawlCrawlCancelResponse,
  FirecrawlCrawlResponse,
  FirecrawlCrawlStatusResponse,
} from '../../schemas/firecrawl.ts';
import { okResponse, RATE_HEADERS } from './error-responses.ts';
import { firecrawlErrorResponses, firecrawlVariants } from './firecrawl.ts';

export interface FirecrawlCrawlOptions {
  jobs: CrawlJobs;
  /** SCOUT_PATH_KEYS: also under /k/:key/v2/crawl. */
  pathKeys: boolean;
  /** SCOUT_PUBLIC_URL when the operator set it: the base of the status URL the start answers. */
  publicUrl: string | undefined;
  /** The base when neither SCOUT_PUBLIC_URL nor the request names a host (an HTTP/1.0 request without Host). */
  localUrl: string;
}

/**
 * Firecrawl's crawl (POST /v2/crawl, GET and DELETE /v2/crawl/{id}) on Scout's crawl jobs:
 * the same jobs as POST /v1/crawl with async: true (store, runner, bound per key, 24 h
 * expiry, the walk's robots.txt, pacing, address policy and charge), in Firecrawl's fields.
 */
export function firecrawlCrawlRoutes(app: FastifyInstance, o: FirecrawlCrawlOptions): void {
  /** GET /v2/crawl/{id} as an absolute URL, as Firecrawl answers it; never with a path key in it. */
  const statusUrl = (request: FastifyRequest, id: string): string => {
    const base = o.publicUrl ?? (request.host === '' ? o.localUrl : `${request.protocol}://${request.host}`);
    return `${base.replace(/\/+$/, '')}/v2/crawl/${id}`;
  };

  app.register(async (scope) => {
    for (const { prefix, pathKey, config, common, op } of firecrawlVariants(o.pathKeys)) {
      // Under a path key the key is a parameter of the path too (auth.ts reads it there).
      const params = pathKey
        ? Type.Object({ key: Type.String(), ...CrawlJobId.properties }, { additionalProperties: false })
        : CrawlJobId;

      scope.post(
        `${prefix}/v2/crawl`,
        {
          config,
          schema: {
            ...common,
            operationId: op('firecrawlCrawl'),
            summary: 'start a crawl job, answered in the Firecrawl v2 crawl shape',
            body: FirecrawlCrawlBody,
            response: {
              // 200, not 202: the SDK's startCrawl takes only a 200 as success.
              200: okResponse(
                FirecrawlCrawlResponse,
                'The job, queued: its id and status URL; GET /v2/crawl/{id} reads it.',
                RATE_HEADERS,
              ),
              ...firecrawlErrorResponses([400, 401, 413, 429, 503]),
            },
          },
          // The body is read by firecrawlCrawlPlan, which words its errors: no schema validation here.
          validatorCompiler: () => () => true,
        },
        async (request): Promise<FirecrawlCrawlResponse> => {
          const plan = firecrawlCrawlPlan(request.body);
          const job = await o.jobs.start(plan.request, request.ctx, plan.patterns, 'firecrawl');
          const body: FirecrawlCrawlResponse = { success: true, id: job.id, url: statusUrl(request, job.id) };
          if (plan.hints.length > 0) body.agent_hints = plan.hints;
          return body;
        },
      );

      // Reading a job takes nothing from the key's bucket, as GET /v1/crawl/{id}: polling
      // (the SDK's crawl() polls every pollInterval seconds) does not slow the crawl it polls.
      scope.get<{ Params: CrawlJobId }>(
        `${prefix}/v2/crawl/:id`,
        {
          config: { ...config, rateLimit: 'peek' as const },
          schema: {
            ...common,
            operationId: op('firecrawlCrawlStatus'),
            summary: 'a crawl job: its state and its pages so far, in the Firecrawl v2 crawl status shape',
            params,
            response: {
              200: okResponse(FirecrawlCrawlStatusResponse, 'The job as it stands; takes nothing from the rate limit.'),
              ...firecrawlErrorResponses([400, 401, 404, 503]),
            },
          },
        },
        async (request, reply) => {
          reply.header('cache-control', 'no-store');
          return firecrawlCrawlStatusBody(await o.jobs.get(request.params.id, request.ctx));
        },
      );

      // The SDK's getActiveCrawls: without this route "active" would be read as a job id, and
      // its 404 would speak of a job.
      scope.get(`${prefix}/v2/crawl/active`, { config, schema: { hide: true } }, async () => {
        throw new DomainError(
          'not_found',
          'GET /v2/crawl/active is not served: Scout lists no active crawls; keep the ids POST /v2/crawl answered (docs/compat.md)',
        );
      });

      scope.delete<{ Params: CrawlJobId }>(
        `${prefix}/v2/crawl/:id`,
        {
          config,
          schema: {
            ...common,
            operationId: op('firecrawlCrawlCancel'),
            summary: 'cancel a crawl job (its pages so far stay readable), answered as Firecrawl does',
            params,
            response: {
              200: okResponse(FirecrawlCrawlCancelResponse, 'cancelled, or how the job had already ended.'),
              ...firecrawlErrorResponses([400, 401, 404, 429, 503]),
            },
          },
        },
        async (request) => firecrawlCancelBody(await o.jobs.cancel(request.params.id, request.ctx)),
      );
    }
  });
}
