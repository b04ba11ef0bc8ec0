import type { FastifyInstance } from 'fastify';
import type { ScoutMetrics } from '../../metrics/scout-metrics.ts';
import { adminTokenCheck } from '../admin-token.ts';

/**
 * GET /metrics on the API port (Prometheus text format), behind the admin token like the
 * admin API, and absent (404) when SCOUT_ADMIN_TOKEN is unset. A scraper on the same host
 * can use SCOUT_METRICS_PORT instead (http/metrics-server.ts), without a token.
 */
export function metricsRoutes(app: FastifyInstance, o: { token: string | undefined; metrics: ScoutMetrics }): void {
  if (o.token === undefined) return;
  app.get('/metrics', { schema: { hide: true }, onRequest: adminTokenCheck(o.token) }, async (_request, reply) => {
    const text = await o.metrics.render();
    return reply.header('content-type', o.metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
