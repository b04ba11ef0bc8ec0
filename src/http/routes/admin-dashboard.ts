import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { KeyAdmin } from '../../admin/key-admin.ts';
import { AdminKey, AdminKeyList, AdminOverview } from '../../schemas/admin.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { adminTokenCheck } from '../admin-token.ts';
import { errorResponses } from './error-responses.ts';

export interface AdminDashboardRoutesOptions {
  /** SCOUT_ADMIN_TOKEN; undefined registers nothing. */
  token: string | undefined;
  overview: () => Promise<AdminOverview>;
  keys: KeyAdmin;
}

const KeyIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

/**
 * The dashboard's data (read by /admin, usable by any operator script): one overview of the
 * service, the keys with their usage, and revoking a key. Behind the admin token, not in
 * /openapi.json; answers are never cached.
 */
export function adminDashboardRoutes(app: FastifyInstance, o: AdminDashboardRoutesOptions): void {
  if (o.token === undefined) return;
  const onRequest = adminTokenCheck(o.token);
  const common = { hide: true, tags: ['admin'] };
  // Errors included: nothing from here is kept by a browser or a proxy.
  const onSend = async (_request: unknown, reply: { header(name: string, value: string): unknown }) => {
    reply.header('cache-control', 'no-store');
  };
  const errors = (...statuses: number[]) => errorResponses(ErrorBody, [400, 401, ...statuses]);
  app.get(
    '/admin/v1/overview',
    { onRequest, onSend, schema: { ...common, response: { 200: AdminOverview, ...errors() } } },
    async () => o.overview(),
  );
  app.get(
    '/admin/v1/keys',
    { onRequest, onSend, schema: { ...common, response: { 200: AdminKeyList, ...errors() } } },
    async () => ({
      keys: await o.keys.list(),
    }),
  );
  app.post<{ Params: { id: string } }>(
    '/admin/v1/keys/:id/revoke',
    { onRequest, onSend, schema: { ...common, params: KeyIdParams, response: { 200: AdminKey, ...errors(404) } } },
    async (request) => o.keys.revoke(request.params.id),
  );
}
