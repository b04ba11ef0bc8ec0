import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { ClickLinks } from '../../sponsored/click-links.ts';
import { ErrorBody } from '../../schemas/error.ts';

/**
 * GET /v1/r/<rec_id>: the click URL of a sponsored result. No API key: people and browsers
 * follow it. 302 to the landing page and a click recorded; HEAD answers the same without
 * recording (link previews are not clicks). Unknown or expired: 404. The landing page is
 * checked again first, its redirects followed (its host may have been re-pointed, or its
 * redirect changed, since the campaign was stored): not public now, or redirecting somewhere
 * that is not, is 403; unresolvable or not answering the check 502; neither redirects nor counts.
 */
export function clickRoutes(app: FastifyInstance, clicks: ClickLinks): void {
  app.get<{ Params: { rec_id: string } }>(
    '/v1/r/:rec_id',
    {
      schema: {
        operationId: 'followSponsoredLink',
        summary: 'follow a sponsored result to its landing page',
        security: [],
        params: Type.Object({ rec_id: Type.String({ description: 'The rec_id of the sponsored result.' }) }),
        response: {
          302: Type.Null({ description: 'Redirect to the landing page (Location header).' }),
          403: {
            ...ErrorBody,
            description:
              'The landing page, or a page it redirects to, is not at a public address now (private, loopback or reserved).',
          },
          404: {
            ...ErrorBody,
            description: 'Unknown or expired rec_id (click URLs expire after SCOUT_SPONSORED_REC_TTL_DAYS).',
          },
          502: {
            ...ErrorBody,
            description:
              "The landing page could not be checked: its host (or a redirect's) could not be resolved, or it did not answer.",
          },
        },
      },
    },
    async (request, reply) => {
      const landing = await clicks.follow(request.params.rec_id, request.method === 'GET');
      // Every follow must reach Scout to be counted, and the landing may change per impression.
      reply.header('cache-control', 'no-store');
      return reply.redirect(landing, 302);
    },
  );
}
