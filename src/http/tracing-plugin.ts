import type { FastifyInstance } from 'fastify';
import { redactPathKey } from './path-key.ts';

/**
 * A server span per request (@fastify/otel, on the provider start-tracing.ts registered),
 * carrying the request_id every log line and error body carries (`scout.request_id`), so a
 * trace and its logs are found from either. Registered before every hook and route. Its
 * url.path attribute is the path with any path key redacted (path-key.ts).
 */
export async function registerTracing(app: FastifyInstance): Promise<void> {
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  const instrumentation = new FastifyOtelInstrumentation({
    requestHook: (span, request) => {
      span.setAttribute('scout.request_id', request.id);
      // The plugin records the raw URL; a key in the path (SCOUT_PATH_KEYS) must not leave.
      span.setAttribute('url.path', redactPathKey(request.url));
    },
  });
  await app.register(instrumentation.plugin());
}
