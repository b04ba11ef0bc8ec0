import type { FastifyInstance } from 'fastify';
import { adminTokenCheck } from '../admin-token.ts';
import { Type } from '@sinclair/typebox';
import type { CampaignAdmin } from '../../sponsored/campaign-admin.ts';
import {
  Campaign,
  CampaignFile,
  CampaignIdParams,
  CampaignList,
  CampaignReport,
  ReportQuery,
} from '../../schemas/campaign.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { errorResponses } from './error-responses.ts';

export interface AdminCampaignRoutesOptions {
  /** SCOUT_ADMIN_TOKEN; undefined registers nothing (the admin API is off). */
  token: string | undefined;
  admin: CampaignAdmin;
}

type Id = { Params: { id: string } };

/**
 * /admin/v1/campaigns: the operations of `scout campaigns`, for operators (docs/sponsored.md
 * "Admin API"). Not in /openapi.json, which describes the agent-facing API. Campaign bodies
 * are validated by the campaign validator, which lists every problem (route validation stops
 * at the first), so the schema is attached for documentation and serialization only.
 */
export function adminCampaignRoutes(app: FastifyInstance, o: AdminCampaignRoutesOptions): void {
  if (o.token === undefined) return;
  const onRequest = adminTokenCheck(o.token);
  const admin = o.admin;
  const errors = (...statuses: number[]) => errorResponses(ErrorBody, [400, 401, ...statuses]);
  const base = '/admin/v1/campaigns';
  const common = { hide: true, tags: ['admin'] };

  app.post<{ Body: unknown }>(
    base,
    {
      onRequest,
      attachValidation: true,
      schema: { ...common, body: CampaignFile, response: { 201: Campaign, ...errors(413) } },
    },
    async (request, reply) => reply.code(201).send(await admin.create(request.body)),
  );
  app.get(base, { onRequest, schema: { ...common, response: { 200: CampaignList, ...errors() } } }, async () => ({
    campaigns: await admin.list(),
  }));
  app.get<{ Querystring: { since?: string } }>(
    `${base}/report`,
    { onRequest, schema: { ...common, querystring: ReportQuery, response: { 200: CampaignReport, ...errors() } } },
    async (request) => admin.report(request.query.since),
  );
  app.get<Id>(
    `${base}/:id`,
    { onRequest, schema: { ...common, params: CampaignIdParams, response: { 200: Campaign, ...errors(404) } } },
    async (request) => admin.get(request.params.id),
  );
  app.put<Id & { Body: unknown }>(
    `${base}/:id`,
    {
      onRequest,
      attachValidation: true,
      schema: {
        ...common,
        params: CampaignIdParams,
        body: CampaignFile,
        response: { 200: Campaign, ...errors(404, 413) },
      },
    },
    async (request) => admin.replace(request.params.id, request.body),
  );
  app.delete<Id>(
    `${base}/:id`,
    { onRequest, schema: { ...common, params: CampaignIdParams, response: { 204: Type.Null(), ...errors(404) } } },
    async (request, reply) => {
      await admin.delete(request.params.id);
      return reply.code(204).send();
    },
  );
  for (const action of ['pause', 'resume'] as const) {
    app.post<Id>(
      `${base}/:id/${action}`,
      { onRequest, schema: { ...common, params: CampaignIdParams, response: { 200: Campaign, ...errors(404) } } },
      async (request) => admin[action](request.params.id),
    );
  }
}
