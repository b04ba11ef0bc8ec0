import type { FastifyInstance } from 'fastify';

/**
 * A server span per request (@fastify/otel, on the provider start-tracing.ts registered),
 * carrying the request_id every log line and error body carries (`scout.request_id`), so a
 * trace and its logs are found from either. Registered before every hook and route.
 */
export async function registerTracing(app: FastifyInstance): Promise<void> {
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  const instrumentation = new FastifyOtelInstrumentation({
    requestHook: (span, request) => span.setAttribute('scout.request_id', request.id),
  });
  await app.register(instrumentation.plugin());
}
