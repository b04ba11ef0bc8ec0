import { createServer, type Server } from 'node:http';
import type { ScoutMetrics } from '../metrics/scout-metrics.ts';
import { answerConnect } from './connect-method.ts';
import { answerHalfClosedClients } from './half-closed-clients.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

const errorBody = (status: number, message: string): string => JSON.stringify({ error: { status, message } });

/**
 * SCOUT_METRICS_PORT: GET /metrics on 127.0.0.1 only, without a token, for a scraper on the
 * same host (Prometheus, an agent sidecar). Anything else is a 404 or 405 in the API's error
 * shape. A plain Node server: it shares nothing with the API's limits, so a flood of API
 * traffic cannot starve the scrape of a connection.
 */
export async function startMetricsServer(metrics: ScoutMetrics, port: number): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const send = (status: number, type: string, body: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (path !== '/metrics')
      return send(
        404,
        'application/json; charset=utf-8',
        errorBody(404, `nothing at ${path}: this port serves GET /metrics only`),
      );
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(405, 'application/json; charset=utf-8', errorBody(405, `/metrics answers GET, not ${req.method}`), {
        allow: 'GET, HEAD',
      });
    }
    metrics.render().then(
      (text) => send(200, metrics.contentType, text),
      (e: unknown) =>
        send(
          500,
          'application/json; charset=utf-8',
          errorBody(500, `metrics could not be collected: ${(e as Error).message}`),
        ),
    );
  });
  answerHalfClosedClients(server);
  answerConnect(server);
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
